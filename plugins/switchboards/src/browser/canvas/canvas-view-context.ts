import { makeAutoObservable, type NodeRendererDescriptor } from '@werkbank/sdk/browser';
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
 */
export class CanvasDetail {
  far = false;
  constructor() {
    makeAutoObservable(this);
  }
  setFar(far: boolean): void {
    if (far !== this.far) this.far = far;
  }
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
