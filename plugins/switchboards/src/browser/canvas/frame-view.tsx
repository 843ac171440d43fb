import { observer } from '@werkbank/sdk/browser';
import { typeName } from '../../common/switchboard-types';
import type { CanvasItem } from './rete-canvas';
import { useFar, type CanvasViewContext, type SocketEmit } from './canvas-view-context';
import { ItemSocket } from './item-socket';
import { PresenceMarks } from './presence-marks';

const stop = (e: { stopPropagation(): void }) => e.stopPropagation();

/**
 * A frame on the canvas: its name, type, size and first items; a socket on each side (the node that
 * writes it on the left, the nodes that read it on the right). Hovering shows its data; a double
 * click opens the frame dialog.
 */
export const CanvasFrameView = observer(function CanvasFrameView(props: {
  data: CanvasItem;
  emit: SocketEmit;
  ctx: CanvasViewContext;
}) {
  const { data, emit, ctx } = props;
  const far = useFar(ctx.detail, data.uri);
  const frame = ctx.store.frames.get(data.uri);
  if (!frame) return null;
  const socket = (side: 'input' | 'output', key: string) => <ItemSocket item={data} emit={emit} side={side} socketKey={key} />;
  const className = `wb-frame${data.selected ? ' wb-selected' : ''}${frame.outdated ? ' wb-outdated' : ''}`;
  const handlers = {
    onDoubleClick: (e: { stopPropagation(): void }) => {
      stop(e);
      ctx.openFrame(frame.resource_uri);
    },
    onMouseEnter: (e: { clientX: number; clientY: number; buttons: number }) =>
      ctx.hover({ frame: frame.resource_uri, x: e.clientX, y: e.clientY, buttons: e.buttons }),
    onMouseLeave: () => ctx.hover(null),
  };
  if (far) {
    // Far out: the box and its two sockets, which is all that is drawn of a frame there (CanvasDetail).
    return (
      <div className={`${className} wb-item-far`} data-testid="canvas-frame" data-uri={frame.resource_uri} {...handlers}>
        <PresenceMarks ctx={ctx} uri={frame.resource_uri} />
        <div className="wb-frame-side">{socket('input', 'in')}</div>
        <div className="wb-frame-side">{socket('output', 'out')}</div>
      </div>
    );
  }
  const role = frame.frame_type === 1 ? ctx.t('frame.input') : frame.frame_type === 2 ? ctx.t('frame.output') : null;
  return (
    <div className={className} data-testid="canvas-frame" data-uri={frame.resource_uri} {...handlers}>
      <PresenceMarks ctx={ctx} uri={frame.resource_uri} />
      <div className="wb-frame-side">{socket('input', 'in')}</div>
      <div className="wb-frame-main">
        <div className="wb-frame-title">
          <span className="wb-frame-name">{frame.name || typeName(frame.content_type)}</span>
          {role && <span className="wb-frame-role">{role}</span>}
        </div>
        <div className="wb-frame-meta">
          <span className="wb-port-type">{typeName(frame.content_type)}</span>
          <span data-testid="frame-size">{ctx.t('frame.size', { count: frame.size })}</span>
        </div>
        {frame.text_repr && <div className="wb-frame-text">{frame.text_repr}</div>}
      </div>
      <div className="wb-frame-side">{socket('output', 'out')}</div>
    </div>
  );
});

/** A note: its Markdown as HTML the server rendered and sanitised (docs/api.md "note"). */
export const CanvasNoteView = observer(function CanvasNoteView(props: { data: CanvasItem; ctx: CanvasViewContext }) {
  const { data, ctx } = props;
  const note = ctx.store.notes.get(data.uri);
  if (!note) return null;
  return (
    <div
      className={`wb-note${data.selected ? ' wb-selected' : ''}`}
      data-testid="canvas-note"
      data-uri={note.resource_uri}
      onDoubleClick={(e) => {
        stop(e);
        ctx.editNote(note.resource_uri);
      }}
      // The server sanitises (no scripts, handlers, styles or unsafe links): docs/api.md "note".
      dangerouslySetInnerHTML={{ __html: note.html }}
    />
  );
});
