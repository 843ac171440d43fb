import { useEffect } from '@werkbank/sdk/react';
import { SWITCHBOARD_ACTION, switchboardAction } from '@werkbank/sdk';
import type { CanvasController } from './canvas-controller';

const typing = () => {
  const el = document.activeElement as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
};
const dialogOpen = () => !!document.querySelector('.bp6-overlay-open, [role="dialog"]');

/**
 * Undo (Ctrl+Z), redo (Ctrl+Shift+Z, Ctrl+Y) and Delete on the canvas (beyond spec 000); like the
 * spec's shortcuts, not while typing or while a dialog or the context view is open.
 */
export function useCanvasKeys(c: CanvasController): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing() || dialogOpen() || c.dialog || c.contextViewOpen) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 'z') {
        e.preventDefault();
        void (e.shiftKey ? c.redo() : c.undo());
      } else if (mod && key === 'y') {
        e.preventDefault();
        void c.redo();
      } else if (!mod && (e.key === 'Delete' || e.key === 'Backspace') && c.selection.length && c.store.writable) {
        e.preventDefault();
        void c.deleteSelection();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [c]);
}

/** The canvas actions the embedded viewer may ask for by name (spec 000 §2). */
export function viewerActions(c: CanvasController): Record<string, (...args: unknown[]) => unknown> {
  return {
    run: () => c.run(),
    abort: () => c.abort(),
    reload: () => c.store.load(),
    undo: () => c.undo(),
    redo: () => c.redo(),
    insert: (mode) => c.openDialog({ kind: 'insert', mode: mode === 'data' || mode === 'note' ? mode : 'function' }),
    openFrame: (uri) => typeof uri === 'string' && c.store.frames.has(uri) && c.openDialog({ kind: 'frame', uri }),
    openNode: (uri) => typeof uri === 'string' && c.store.nodes.has(uri) && c.openDialog({ kind: 'node', uri }),
    select: (...uris) => c.rete?.select(uris.filter((u): u is string => typeof u === 'string')),
    zoomToFit: () => c.rete?.zoomToFit(),
  };
}

/**
 * Messages from the embedded viewer (spec 000 §2): `{type: 'switchboard_action', action, args}` (or
 * `['switchboard_action', action, args]`) dispatches the named canvas action. Accepted from this
 * page's origin, and from the preview frame itself when it shows the configured viewer's origin;
 * other pages (another tab, an ad in the viewer) are ignored.
 */
export function useViewerMessages(
  c: CanvasController,
  preview: { current: HTMLIFrameElement | null },
  viewerOrigin?: string,
): void {
  useEffect(() => {
    const actions = viewerActions(c);
    const onMessage = (e: MessageEvent) => {
      const fromPreview = !!preview.current && e.source === preview.current.contentWindow;
      if (e.origin !== window.location.origin && !(fromPreview && e.origin === viewerOrigin)) return;
      const m = switchboardAction(e.data);
      if (!m) return;
      const run = Object.hasOwn(actions, m.action) ? actions[m.action] : undefined;
      if (!run) {
        console.warn('Unknown switchboard_action', m.action);
        return;
      }
      void run(...m.args);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [c, viewerOrigin]);
}

/**
 * What the map of the preview shows: the frames visible on it with their content and whether they
 * are edited there. When it changes (a run, an edit, someone else's change), the canvas asks the
 * viewer in the preview frame to reload (`switchboard_action` `reload`, decision 0090).
 */
export function mapSignature(c: CanvasController): string {
  return [...c.store.frames.values()]
    .filter((f) => f.content_visible)
    .map((f) => `${f.id}:${f.content_hash ?? ''}:${f.content_edit ? 1 : 0}:${f.name}`)
    .sort()
    .join('|');
}

export function useReloadPreview(
  c: CanvasController,
  preview: { current: HTMLIFrameElement | null },
  viewerOrigin: string | undefined,
): void {
  const signature = mapSignature(c);
  useEffect(() => {
    const frame = preview.current?.contentWindow;
    if (!frame || !viewerOrigin) return;
    frame.postMessage({ type: SWITCHBOARD_ACTION, action: 'reload', args: [] }, viewerOrigin);
  }, [signature]);
}
