import { observer } from '@werkbank/sdk/browser';
import { Button, Icon, ProgressBar, Tooltip } from '@werkbank/sdk/ui';
import { typeName } from '../../common/switchboard-types';
import type { CanvasItem } from './rete-canvas';
import { pickRenderer, useFar, type CanvasViewContext, type SocketEmit } from './canvas-view-context';
import { NAME_TOOLTIP_LENGTH, type Slot } from './port-slots';
import { DictKeyEditor } from './dict-key-editor';
import { ItemSocket } from './item-socket';
import { PresenceMarks } from './presence-marks';
import { OWN_POINTER } from './canvas-portals';
import { portValueText } from '../dialogs/port-value-editor';

const stop = (e: { stopPropagation(): void }) => e.stopPropagation();

/** A name with a tooltip when it is longer than 8 characters (spec 000 §9). */
export function PortName({ name }: { name: string }) {
  return name.length > NAME_TOOLTIP_LENGTH ? (
    <Tooltip content={name} compact>
      <span className="wb-port-name">{name}</span>
    </Tooltip>
  ) : (
    <span className="wb-port-name">{name}</span>
  );
}

/**
 * A node on the canvas (spec 000 §4): title, status (running with a stop button and progress; a node
 * not yet successful with progress and its exception, cut with an ellipsis; failed with an info icon
 * when node_runs is on), the outdated mark, who else selected it, the body its renderer draws, and
 * its ports with their types (list and dict ports as slots).
 */
export const CanvasNodeView = observer(function CanvasNodeView(props: {
  data: CanvasItem;
  emit: SocketEmit;
  ctx: CanvasViewContext;
}) {
  const { data, emit, ctx } = props;
  const far = useFar(ctx.detail, data.uri);
  const node = ctx.store.nodes.get(data.uri);
  if (!node) return null;
  const socketOf = (side: 'input' | 'output', key: string) => <ItemSocket item={data} emit={emit} side={side} socketKey={key} />;
  // A node that never ran has no results to be outdated and no progress to show.
  const outdated = node.outdated && node.status !== 'initialized';
  const className = `wb-node wb-status-${node.status}${data.selected ? ' wb-selected' : ''}${outdated ? ' wb-outdated' : ''}`;
  const open = (e: { stopPropagation(): void }) => {
    stop(e);
    ctx.openNode(node.resource_uri);
  };
  if (far) {
    // Far out: the box and its sockets, which is all that is drawn of a node there (CanvasDetail).
    return (
      <div
        className={`${className} wb-item-far`}
        data-testid="canvas-node"
        data-uri={node.resource_uri}
        data-status={node.status}
        onDoubleClick={open}
      >
        <PresenceMarks ctx={ctx} uri={node.resource_uri} />
        <div className="wb-far-sockets wb-port-in">
          {data.slots.map((s) => (
            <span key={s.key} data-testid="port-in" data-key={s.key}>
              {socketOf('input', s.key)}
            </span>
          ))}
        </div>
        <div className="wb-far-sockets wb-port-out">
          {node.ports
            .filter((p) => !p.is_input)
            .map((p) => (
              <span key={p.name} data-testid="port-out" data-key={p.name}>
                {socketOf('output', p.name)}
              </span>
            ))}
        </div>
      </div>
    );
  }
  const t = ctx.t;
  const Body = pickRenderer(ctx.renderers(), node.func)?.component;
  const outputs = ctx.store
    .linksOf(node.resource_uri)
    .filter((l) => !l.is_input)
    .map((l) => {
      const f = ctx.store.frames.get(l.frame);
      return (
        f && {
          port: l.name,
          frame: f.resource_uri,
          name: f.name,
          type: typeName(f.content_type),
          size: f.size,
          text_repr: f.text_repr,
        }
      );
    })
    .filter((x): x is NonNullable<typeof x> => !!x);
  const linkedInputs = new Set(
    ctx.store
      .linksOf(node.resource_uri)
      .filter((l) => l.is_input && l.node === node.resource_uri)
      .map((l) => l.name),
  );
  const slotRow = (s: Slot) => {
    // An unlinked input's own value (issue 14 item 13); a link replaces it.
    const own = !s.port.is_list && !s.port.is_dict && !linkedInputs.has(s.port.name) ? portValueText(s.port.default_value) : '';
    return (
      <div className="wb-port wb-port-in" key={s.key} data-testid="port-in" data-key={s.key}>
        {socketOf('input', s.key)}
        {s.port.is_dict ? (
          <DictKeyEditor ctx={ctx} node={node.resource_uri} port={s.port.name} value={s.dictKey ?? ''} />
        ) : (
          <PortName name={s.label} />
        )}
        {own ? (
          <span className="wb-port-value" data-testid="port-value" title={t('node.value_hint', { name: s.port.name })}>
            {own}
          </span>
        ) : (
          <span className="wb-port-type">{typeName(s.port.content_type)}</span>
        )}
      </div>
    );
  };
  return (
    <div
      className={className}
      data-testid="canvas-node"
      data-uri={node.resource_uri}
      data-status={node.status}
      onDoubleClick={open}
    >
      <PresenceMarks ctx={ctx} uri={node.resource_uri} />
      <div className="wb-node-title" title={node.func}>
        <span className="wb-node-name">{node.func_verbose_name || node.func}</span>
        {outdated && (
          <span className="wb-node-outdated" data-testid="node-outdated" title={t('node.outdated_hint')}>
            {t('node.outdated')}
          </span>
        )}
        {node.status === 'started' && (
          <Button
            small
            minimal
            icon="stop"
            aria-label={t('node.stop')}
            data-testid="node-stop"
            {...OWN_POINTER}
            onClick={() => ctx.stopNode(node.resource_uri)}
          />
        )}
        {node.status === 'failure' && ctx.nodeRunsEnabled && (
          <Button
            small
            minimal
            icon={<Icon icon="info-sign" intent="danger" />}
            aria-label={t('node.runs')}
            data-testid="node-info"
            {...OWN_POINTER}
            onClick={() => ctx.openNode(node.resource_uri, 'runs')}
          />
        )}
      </div>
      <div className="wb-node-status" data-testid="node-status">
        {t(`status.${node.status}`)}
      </div>
      {node.status !== 'success' && node.status !== 'initialized' && node.runinfo.progress !== null && (
        <ProgressBar value={node.runinfo.progress / 100} stripes={node.status === 'started'} aria-label={t('node.progress')} />
      )}
      {Body && <Body node={node} outputs={outputs} />}
      <div className="wb-node-ports">
        <div className="wb-node-inputs">{data.slots.map(slotRow)}</div>
        <div className="wb-node-outputs">
          {node.ports
            .filter((p) => !p.is_input)
            .map((p) => (
              <div className="wb-port wb-port-out" key={p.name} data-testid="port-out" data-key={p.name}>
                <span className="wb-port-type">{typeName(p.content_type)}</span>
                <PortName name={p.name} />
                {socketOf('output', p.name)}
              </div>
            ))}
        </div>
      </div>
    </div>
  );
});
