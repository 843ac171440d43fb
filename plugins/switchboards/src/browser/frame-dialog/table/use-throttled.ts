import { useEffect, useRef } from '@werkbank/sdk/react';

/**
 * `fn` at most once per `ms`: a call within the interval runs once at its end (the latest `fn`
 * then). The pending call is dropped when the component unmounts.
 */
export function useThrottled(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  latest.current = fn;
  const state = useRef<{ last: number; timer?: ReturnType<typeof setTimeout> }>({ last: 0 });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  const call = useRef(() => {
    const s = state.current;
    const wait = s.last + ms - Date.now();
    if (wait <= 0) {
      s.last = Date.now();
      latest.current();
    } else if (!s.timer) {
      s.timer = setTimeout(() => {
        s.timer = undefined;
        s.last = Date.now();
        latest.current();
      }, wait);
    }
  });
  return call.current;
}
