import { classicConnectionPath } from '@werkbank/sdk/canvas';
import { memo, useLayoutEffect, useReducer, useRef } from '@werkbank/sdk/react';
import type { CanvasViewContext } from './canvas-view-context';

type Point = { x: number; y: number };

/** One link as the layer draws it: its ends, once both sockets have been measured. */
interface LinkLine {
  start?: Point;
  end?: Point;
  path?: string;
  stop(): void;
}

/** How a link's end is followed (BaseSocketPosition.listen): `change` hears every new position. */
export type FollowSocket = (nodeId: string, side: 'input' | 'output', key: string, change: (p: Point) => void) => () => void;

/**
 * Every link of the canvas, drawn in one SVG of one React component (CanvasLinksLayer) instead of a
 * React view, an element and a chain of synchronous renders per link (rete-react-plugin's classic
 * connections; bench/canvas). The ends follow the sockets as Rete's connections do
 * (`BaseSocketPosition.listen`: measured sockets, moved items); the path is Rete's classic curve.
 * Changes are drawn together after the current microtask.
 */
export class LinksLayer {
  private readonly lines = new Map<string, LinkLine>();
  private listener?: () => void;
  private scheduled = false;
  /** Bumped on every change; the layer draws again when it has not drawn this one. */
  version = 0;

  constructor(private readonly follow: FollowSocket) {}

  /** Starts drawing a link from an output socket to an input socket. */
  add(uri: string, source: string, sourceKey: string, target: string, targetKey: string): void {
    this.remove(uri);
    const line: LinkLine = { stop: () => undefined };
    this.lines.set(uri, line);
    const set = (which: 'start' | 'end') => (p: Point) => {
      line[which] = p;
      if (line.start && line.end) line.path = classicConnectionPath([line.start, line.end], 0.3);
      this.changed();
    };
    const stopStart = this.follow(source, 'output', sourceKey, set('start'));
    const stopEnd = this.follow(target, 'input', targetKey, set('end'));
    line.stop = () => {
      stopStart();
      stopEnd();
    };
  }

  remove(uri: string): void {
    const line = this.lines.get(uri);
    if (!line) return;
    line.stop();
    this.lines.delete(uri);
    this.changed();
  }

  /** The links whose two ends are known, with their paths. */
  paths(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const [uri, line] of this.lines) if (line.path) out.push([uri, line.path]);
    return out;
  }

  setListener(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  dispose(): void {
    for (const line of this.lines.values()) line.stop();
    this.lines.clear();
  }

  private changed(): void {
    this.version++;
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      this.listener?.();
    });
  }
}

/** What a link does when the pointer rests on it or asks for its menu. */
export interface LinkEvents {
  ctx: CanvasViewContext;
  contextMenu(uri: string, event: MouseEvent): void;
}

const LinkPath = memo(function LinkPath({ uri, d, events }: { uri: string; d: string; events: LinkEvents }) {
  return (
    <g className="wb-link" data-testid="canvas-link" data-uri={uri}>
      <path
        className="wb-link-hit"
        d={d}
        fill="none"
        strokeWidth={14}
        stroke="transparent"
        style={{ pointerEvents: 'auto' }}
        onMouseEnter={(e) => {
          const link = events.ctx.store.links.get(uri);
          if (link) events.ctx.hover({ frame: link.frame, x: e.clientX, y: e.clientY, buttons: e.buttons });
        }}
        onMouseLeave={() => events.ctx.hover(null)}
        onContextMenu={(e) => {
          e.preventDefault();
          e.stopPropagation();
          events.contextMenu(uri, e.nativeEvent);
        }}
      />
      <path className="wb-link-path" d={d} fill="none" strokeWidth={3} />
    </g>
  );
});

/** The SVG of every link: a 1 px box drawing outside itself (a huge one makes panning paint huge layers). */
export function CanvasLinksLayer({ layer, events }: { layer: LinksLayer; events: LinkEvents }) {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const drawn = useRef(-1);
  drawn.current = layer.version;
  useLayoutEffect(() => {
    layer.setListener(redraw);
    if (drawn.current !== layer.version) redraw();
    return () => layer.setListener(undefined);
  });
  return (
    <svg
      className="wb-links"
      style={{ overflow: 'visible', position: 'absolute', left: 0, top: 0, pointerEvents: 'none', width: 1, height: 1 }}
    >
      {layer.paths().map(([uri, d]) => (
        <LinkPath key={uri} uri={uri} d={d} events={events} />
      ))}
    </svg>
  );
}
