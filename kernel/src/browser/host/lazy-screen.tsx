import { useEffect, useState, type ComponentType } from 'react';
import { Spinner } from '@blueprintjs/core';

/**
 * A screen loaded on demand (`RouteDescriptor.load`, STYLE §8): a spinner until its module has
 * loaded, then the screen — drawn as soon as the module is there.
 *
 * Not `React.lazy` under `<Suspense>`: React reveals a suspended boundary in a retry, and holds every
 * retry back until 300 ms after it showed the fallback (its "fallback throttle"), so a screen whose
 * module loaded in 20 ms still appeared only after 300 ms and its data was asked for only then
 * (bench/canvas, decision 0081, 2026-11-27 evening). Here the loaded module is set as ordinary state,
 * which React draws at once. A module that failed to load is thrown while rendering, as `lazy` does,
 * so an error boundary above sees the same error.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): ComponentType {
  let loaded: ComponentType | undefined;
  let failed: { error: unknown } | undefined;
  let pending: Promise<void> | undefined;
  const start = () =>
    (pending ??= load().then(
      (m) => void (loaded = m.default),
      (error: unknown) => void (failed = { error }),
    ));
  return function LazyScreen() {
    const [, setDone] = useState(0);
    // Asked for while rendering, as `lazy` does: the module loads while React finishes the page.
    if (!loaded && !failed) void start();
    const drawnLoaded = !!loaded || !!failed;
    useEffect(() => {
      if (drawnLoaded) return;
      let live = true;
      // Also when the module arrived between this render and now: draw again.
      void start().then(() => live && setDone((n) => n + 1));
      return () => void (live = false);
    }, [drawnLoaded]);
    if (failed) throw failed.error;
    const Screen = loaded;
    return Screen ? <Screen /> : <Spinner className="wb-spinner" />;
  };
}
