import { createPortal } from '@werkbank/sdk/canvas';
import { memo, useLayoutEffect, useReducer, useRef, type ReactElement } from '@werkbank/sdk/react';

/** Views per bucket: an update of one view walks its bucket and the list of buckets, not every view. */
const BUCKET_SIZE = 64;

interface PortalEntry {
  key: number;
  container: Element;
  node: ReactElement;
  /** Bumped on every render asked of this entry; the slot draws again when it has not drawn this one. */
  version: number;
  listener?: () => void;
}

interface PortalBucket {
  key: number;
  entries: PortalEntry[];
  listener?: () => void;
}

/**
 * Props for an element inside a canvas view that handles the pointer itself (buttons, inputs): a
 * press on it does not pick, drag or select the item. React's handlers of the one tree run at the
 * page's root, after Rete's listeners on the item, so `stopPropagation` there would come too late;
 * the portal's container stops the press natively instead (as each view's own React root did).
 */
export const OWN_POINTER = { 'data-canvas-own-pointer': '' } as const;

/** Stops a press that began on an element marked OWN_POINTER before Rete's listeners hear it. */
function keepOwnPointer(e: Event): void {
  const target = e.target as Element | null;
  if (target?.closest?.('[data-canvas-own-pointer]')) e.stopPropagation();
}

/** What rete-react-plugin asks of a React root (its `createRoot` option). */
export interface CanvasRoot {
  render(node: ReactElement): void;
  unmount(): void;
}

/**
 * Every view Rete asks for (nodes, frames, notes, links, the connection being drawn), drawn as
 * portals of one React tree: `<CanvasPortalHost>` in the canvas screen. rete-react-plugin would
 * otherwise make a React root for each view — with its own event listeners, rendered synchronously
 * one after another (`flushSync`) — which took most of the time a big switchboard needed to open
 * (bench/canvas). Here a render only records the view; the views asked for while Rete draws (all of
 * one `sync`, which runs in microtasks) are drawn together in one React render after it.
 *
 * Views sit in buckets of BUCKET_SIZE, so that one view changing (a link's path, a node's status)
 * re-renders its bucket's list at most, not the list of every view.
 */
export class CanvasPortals {
  private readonly buckets: PortalBucket[] = [];
  private hostListener?: () => void;
  private seq = 0;
  /** Listeners to call once the current microtask is over (outside Rete's `flushSync`). */
  private readonly due = new Set<() => void>();

  /** For rete-react-plugin's `createRoot` option. */
  readonly createRoot = (container: Element | DocumentFragment): CanvasRoot => {
    let entry: PortalEntry | undefined;
    let bucket: PortalBucket | undefined;
    return {
      render: (node) => {
        if (entry) {
          entry.node = node;
          entry.version++;
          this.notify(entry.listener);
          return;
        }
        entry = { key: ++this.seq, container: container as Element, node, version: 0 };
        container.addEventListener('pointerdown', keepOwnPointer);
        bucket = this.buckets[this.buckets.length - 1];
        if (!bucket || bucket.entries.length >= BUCKET_SIZE) {
          bucket = { key: ++this.seq, entries: [] };
          this.buckets.push(bucket);
          this.notify(this.hostListener);
        }
        bucket.entries = [...bucket.entries, entry];
        this.notify(bucket.listener);
      },
      unmount: () => {
        if (!entry || !bucket) return;
        const gone = entry;
        container.removeEventListener('pointerdown', keepOwnPointer);
        bucket.entries = bucket.entries.filter((e) => e !== gone);
        this.notify(bucket.listener);
        entry = undefined;
      },
    };
  };

  /** The buckets (for the host). */
  list(): PortalBucket[] {
    return this.buckets;
  }

  setHostListener(listener: (() => void) | undefined): void {
    this.hostListener = listener;
  }

  /**
   * Calls `listener` after the current microtask: Rete calls `render` inside `flushSync`, where a
   * state change would render at once, view by view.
   */
  private notify(listener: (() => void) | undefined): void {
    if (!listener) return;
    if (!this.due.size)
      queueMicrotask(() => {
        const now = [...this.due];
        this.due.clear();
        for (const l of now) l();
      });
    this.due.add(listener);
  }
}

/** Draws again when `subscribe`'s listener is called; the listener is set in a layout effect. */
function useRedraw(attach: (listener: (() => void) | undefined) => void, changedSinceRender: () => boolean): void {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useLayoutEffect(() => {
    attach(redraw);
    // A change between this render and now would have found no listener.
    if (changedSinceRender()) redraw();
    return () => attach(undefined);
  });
}

const PortalSlot = memo(function PortalSlot({ entry }: { entry: PortalEntry }) {
  const drawn = useRef(-1);
  drawn.current = entry.version;
  useRedraw(
    (l) => void (entry.listener = l),
    () => drawn.current !== entry.version,
  );
  return createPortal(entry.node, entry.container);
});

const PortalBucketView = memo(function PortalBucketView({ bucket }: { bucket: PortalBucket }) {
  const drawn = useRef<PortalEntry[] | undefined>(undefined);
  drawn.current = bucket.entries;
  useRedraw(
    (l) => void (bucket.listener = l),
    () => drawn.current !== bucket.entries,
  );
  return (
    <>
      {bucket.entries.map((e) => (
        <PortalSlot key={e.key} entry={e} />
      ))}
    </>
  );
});

/**
 * The one React tree of the canvas views: place it inside the canvas element, so that React events
 * of the views pass the same elements as the browser's do.
 */
export const CanvasPortalHost = memo(function CanvasPortalHost({ portals }: { portals: CanvasPortals }) {
  const drawn = useRef(0);
  drawn.current = portals.list().length;
  useRedraw(
    (l) => portals.setHostListener(l),
    () => drawn.current !== portals.list().length,
  );
  return (
    <>
      {portals.list().map((b) => (
        <PortalBucketView key={b.key} bucket={b} />
      ))}
    </>
  );
});
