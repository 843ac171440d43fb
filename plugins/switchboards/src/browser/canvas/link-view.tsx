import { observer } from '@werkbank/sdk/browser';
import { ReactPresets } from '@werkbank/sdk/canvas';
import type { CanvasLink } from './rete-canvas';
import type { CanvasViewContext } from './canvas-view-context';

/** A link: a curve from frame to port (or port to frame); hovering it shows the frame's data. */
export const CanvasLinkView = observer(function CanvasLinkView(props: { data: CanvasLink; ctx: CanvasViewContext }) {
  const { path } = ReactPresets.classic.useConnection();
  const link = props.ctx.store.links.get(props.data.uri);
  if (!path || !link) return null;
  return (
    <svg
      className="wb-link"
      data-testid="canvas-link"
      data-uri={link.resource_uri}
      // A 1 px box drawing outside itself: a 9999 px one per link makes panning paint huge layers.
      style={{ overflow: 'visible', position: 'absolute', pointerEvents: 'none', width: 1, height: 1 }}
    >
      <path
        className="wb-link-hit"
        d={path}
        fill="none"
        strokeWidth={14}
        stroke="transparent"
        style={{ pointerEvents: 'auto' }}
        onMouseEnter={(e) => props.ctx.hover({ frame: link.frame, x: e.clientX, y: e.clientY, buttons: e.buttons })}
        onMouseLeave={() => props.ctx.hover(null)}
      />
      <path className="wb-link-path" d={path} fill="none" strokeWidth={3} />
    </svg>
  );
});

/** A socket: a round handle. */
export function CanvasSocket() {
  return <div className="wb-socket" />;
}
