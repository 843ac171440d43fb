import { useEffect, useState } from '@werkbank/sdk/react';
import { Button, Callout, H4, HTMLTable, Icon, Tag } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import { idOf, typeName, type NodeRun, type Port, type SbNode } from '../../common/switchboard-types';
import { PortValueEditor, portValueText } from './port-value-editor';
import { formatDateTime, formatDuration, nodeStatusKey, STATUS_INTENT } from './run-format';
import { NodeRunDetails } from './node-run-details';

/**
 * The node's ports with their types and, for inputs, their values (spec 000 §3 Port): an unlinked
 * input's value can be edited here with the editor of its type (issue 14 item 13); a linked one
 * takes its frame's data instead, and says so.
 */
function PortTable({ node, linked, onChanged }: { node: SbNode; linked: string[]; onChanged?(node: SbNode): void }) {
  const t = useT('sb-dialogs');
  const [editing, setEditing] = useState<string>();
  const ports = node.ports;
  if (!ports.length) return <p className="wb-muted">{t('info.no_ports')}</p>;
  const writable = !!onChanged && !!node.access?.includes('write');
  const sorted = [...ports].sort((a, b) => Number(b.is_input) - Number(a.is_input));
  const valueCell = (p: Port) => {
    if (!p.is_input) return null;
    if (linked.includes(p.name)) return <span className="wb-muted">{t('info.value_linked')}</span>;
    if (p.is_list || p.is_dict) return null;
    if (editing === p.name)
      return <PortValueEditor node={node} port={p} onSaved={(n) => onChanged!(n)} onDone={() => setEditing(undefined)} />;
    return (
      <span data-testid="port-value" data-port={p.name}>
        {portValueText(p.default_value)}{' '}
        {writable && (
          <Button
            variant="minimal"
            size="small"
            icon="edit"
            aria-label={String(t('info.value_edit', { name: p.name }))}
            data-testid="port-value-edit"
            onClick={() => setEditing(p.name)}
          />
        )}
      </span>
    );
  };
  return (
    <HTMLTable compact striped style={{ width: '100%' }} data-testid="node-ports">
      <thead>
        <tr>
          <th>{t('info.port')}</th>
          <th>{t('info.direction')}</th>
          <th>{t('info.type')}</th>
          <th>{t('info.value')}</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((p) => (
          <tr key={`${p.is_input ? 'in' : 'out'}:${p.name}`}>
            <td>
              {p.name}
              {p.is_optional && <span className="wb-muted"> {t('info.optional')}</span>}
            </td>
            <td>{t(p.is_input ? 'info.input' : 'info.output')}</td>
            <td>
              <code>{typeName(p.content_type)}</code>
              {p.is_list && <span className="wb-muted"> {t('info.list')}</span>}
              {p.is_dict && <span className="wb-muted"> {t('info.dict')}</span>}
            </td>
            <td>{valueCell(p)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

/** The last run's times (GET {last_run}), with a button to its details. */
function LastRun({ address }: { address: string | null | undefined }) {
  const t = useT('sb-dialogs');
  const api = useService(ApiClient);
  const lang = useService(I18nService).language;
  const [run, setRun] = useState<NodeRun>();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    if (address)
      api.get<NodeRun>(address).then(
        (r) => live && setRun(r),
        () => undefined,
      );
    return () => void (live = false);
  }, [api, address]);
  if (!address) return <span className="wb-muted">{t('info.never_run')}</span>;
  if (!run) return <span className="wb-muted">…</span>;
  return (
    <span data-testid="node-last-run">
      {t('info.last_run_times', {
        start: formatDateTime(run.start, lang),
        end: formatDateTime(run.end, lang),
        duration: formatDuration(run.start, run.end, lang),
      })}{' '}
      <Button variant="minimal" size="small" icon="info-sign" text={t('info.details')} onClick={() => setOpen(true)} />
      {open && <NodeRunDetails runId={idOf(address)!} onClose={() => setOpen(false)} />}
    </span>
  );
}

/**
 * The Information tab of the node dialog (spec 000 §2, §4; spec 002 §4 status texts). `linked` are
 * the names of inputs a link feeds; `onChanged` receives the node after its values were changed
 * (without it the values are read-only).
 */
export const NodeInfoPanel = observer(function NodeInfoPanel({
  node,
  linked,
  onChanged,
}: {
  node: SbNode;
  linked?: string[];
  onChanged?(node: SbNode): void;
}) {
  const t = useT('sb-dialogs');
  const lang = useService(I18nService).language;
  const running = node.status === 'started' || node.status === 'waiting';
  return (
    <div data-testid="node-info">
      <H4>{node.func_verbose_name || node.func}</H4>
      <p>
        <code>{node.func}</code>
      </p>
      {node.superuser_required && (
        <p className="wb-muted" data-testid="node-superuser">
          <Icon icon="lock" size={12} /> {t('functions.superuser_only')}
        </p>
      )}
      {node.func_available === false && (
        <Callout intent="warning" className="wb-gap">
          {t('info.unavailable', { func: node.func })}
        </Callout>
      )}
      {node.func_doc && <p style={{ whiteSpace: 'pre-wrap' }}>{node.func_doc}</p>}
      <HTMLTable compact className="wb-gap">
        <tbody>
          <tr>
            <th>{t('info.status')}</th>
            <td>
              <Tag intent={STATUS_INTENT[node.status]} data-testid="node-status">
                {t(nodeStatusKey(node.status))}
              </Tag>{' '}
              {running && node.runinfo?.progress != null && (
                <span>{t('info.progress', { progress: node.runinfo.progress.toFixed(1) })}</span>
              )}
              {node.outdated && <span className="wb-muted"> {t('info.outdated')}</span>}
            </td>
          </tr>
          <tr>
            <th>{t('info.status_changed')}</th>
            <td>{formatDateTime(node.status_changed, lang)}</td>
          </tr>
          <tr>
            <th>{t('info.last_run')}</th>
            <td>
              <LastRun address={node.last_run} />
            </td>
          </tr>
        </tbody>
      </HTMLTable>
      {node.runinfo?.exception && (
        <Callout intent="danger" title={String(t('run.exception'))} className="wb-gap" data-testid="node-exception">
          <span style={{ whiteSpace: 'pre-wrap' }}>{node.runinfo.exception}</span>
        </Callout>
      )}
      <PortTable node={node} linked={linked ?? linkedInputsOf(node)} onChanged={onChanged} />
    </div>
  );
});

/** The inputs a link feeds, as the node's reply lists its links. */
function linkedInputsOf(node: SbNode): string[] {
  const links = (node.links ?? []) as unknown as Array<{ name: string; is_input: boolean } | string>;
  return links.flatMap((l) => (typeof l === 'object' && l.is_input ? [l.name] : []));
}
