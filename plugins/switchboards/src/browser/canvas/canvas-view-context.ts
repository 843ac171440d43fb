import type { NodeRendererDescriptor } from '@werkbank/sdk/browser';
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
