import { computed, makeAutoObservable, observable, type NodeRendererDescriptor } from '@werkbank/sdk/browser';
import { useMemo } from '@werkbank/sdk/react';
import type { ReactPresets } from '@werkbank/sdk/canvas';
import type { CanvasStore } from './canvas-store';

/** What a socket reports its position through (rete-react-plugin's RefSocket). */
export type SocketEmit = Parameters<typeof ReactPresets.classic.RefSocket>[0]['emit'];

/**
 * What the Rete-rendered views (each in its own React root, so without the workbench's context)
 * need from the canvas screen.
 */
export interface CanvasViewContext {
  store: CanvasStore;
  t: (key: string, opts?: Record<string, unknown>) => string;
  /** The node renderers contributed by plugins (NodeRendererContribution). */
  renderers: () => NodeRendererDescriptor[];
  nodeRunsEnabled: boolean;
  openFrame(uri: string): void;
  openNode(uri: string, tab?: 'info' | 'runs'): void;
  stopNode(uri: string): void;
  editNote(uri: string): void;
  /** Shows (or hides, with null) the data preview of a frame near the pointer. */
  hover(target: { frame: string; x: number; y: number; buttons?: number } | null): void;
  /** Keys typed into the empty slot of a dict port, by `${node}|${port}`; used by the next connection. */
  dictDrafts: Map<string, string>;
  renameDictKey(node: string, port: string, from: string, to: string): void;
  /** How much of each item is drawn at the current zoom (level of detail). */
  detail: CanvasDetail;
}

/**
 * The level of detail of the canvas (decision 0081, 2026-11-27 evening): zoomed out so far that no
 * text is drawn any more (ReteCanvas: below FARTHER_ZOOM), nodes and frames are drawn as boxes with
 * their sockets only — what is visible of them there — instead of their full views with every text
 * hidden. Far fewer elements to create, style and lay out: a big switchboard opened zoomed to fit
 * appears sooner (bench/canvas). Zoomed in again, the full views are drawn and their sockets measured
 * again, so links follow.
 *
 * When the level changes, the items on screen change at once; those off screen keep the old level
 * (`later`) until ReteCanvas releases them, in portions, so that the switch of a big switchboard
 * does not hold up what the user sees.
 */
export class CanvasDetail {
  /** The level the canvas is at. */
  far = false;
  /** Items still drawn at the other level since the last switch. */
  private readonly lagging = observable.set<string>();
  /** Whether waiting items are being switched in portions (releaseLater). */
  private releasing = false;

  constructor() {
    makeAutoObservable<CanvasDetail, 'lagging' | 'releasing'>(this, { lagging: false, releasing: false });
  }

  /** Whether an item is drawn far out (as a box with its sockets). */
  isFar(uri: string): boolean {
    return this.lagging.has(uri) ? !this.far : this.far;
  }

  /** How many items still wait for their switch. */
  get waiting(): number {
    return this.lagging.size;
  }

  /** Switches the level; the items of `later` that are not drawn at it yet keep their level until `release`. */
  setFar(far: boolean, later: Iterable<string> = []): void {
    if (far === this.far) return;
    // An item that still waited for the last switch is drawn at the new level already.
    const keep = [...later].filter((uri) => !this.lagging.has(uri));
    this.far = far;
    this.lagging.replace(keep);
  }

  /** Switches the waiting items, `portion` per frame after the screen has been drawn, until none are left. */
  releaseLater(portion: number): void {
    if (this.releasing || !this.lagging.size) return;
    this.releasing = true;
    const step = () => {
      if (this.release(portion)) requestAnimationFrame(() => setTimeout(step, 0));
      else this.releasing = false;
    };
    requestAnimationFrame(() => setTimeout(step, 0));
  }

  /** Switches up to `count` waiting items to the canvas's level; whether any are left. */
  release(count: number): boolean {
    for (const uri of [...this.lagging].slice(0, count)) this.lagging.delete(uri);
    return this.lagging.size > 0;
  }
}

/**
 * Whether the item `uri` is drawn far out, for an observer view: the view draws again only when its
 * own level changes, not when the canvas's does while the item waits.
 */
export function useFar(detail: CanvasDetail, uri: string): boolean {
  const level = useMemo(() => computed(() => detail.isFar(uri)), [detail, uri]);
  return level.get();
}

/**
 * The renderer for a function: an exact name before the longest namespace prefix before '*'; among
 * equals the highest priority (spec: NodeRendererDescriptor).
 */
export function pickRenderer(renderers: NodeRendererDescriptor[], func: string): NodeRendererDescriptor | undefined {
  const score = (r: NodeRendererDescriptor) => {
    let best = -1;
    for (const f of r.functions) {
      if (f === func) best = Math.max(best, 10_000);
      else if (f.endsWith('.') && func.startsWith(f)) best = Math.max(best, f.length);
      else if (f === '*') best = Math.max(best, 0);
    }
    return best;
  };
  return renderers
    .map((r) => ({ r, s: score(r) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => b.s - a.s || (b.r.priority ?? 0) - (a.r.priority ?? 0) || a.r.id.localeCompare(b.r.id))[0]?.r;
}
