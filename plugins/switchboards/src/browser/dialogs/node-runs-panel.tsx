import { useEffect, useState } from '@werkbank/sdk/react';
import { Callout, HTMLTable, Spinner, Tag } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import { nodeRunsPath, type NodeRun, type SbNode } from '../../common/switchboard-types';
import { formatDateTime, formatDuration, runStatusKey, STATUS_INTENT } from './run-format';
import { NodeRunDetails } from './node-run-details';

/**
 * The node information dialog's Runs tab (spec 000 §2, §7, §8; component node_runs): the node's runs,
 * newest first; a failed load is a red callout headed 'Error', none an info callout. A click (or
 * Enter) on a run opens its details. The list loads again when the node's status or last run
 * changes (the canvas passes the node as live updates change it).
 */
export const NodeRunsPanel = observer(function NodeRunsPanel({ node }: { node: SbNode }) {
  const t = useT('sb-dialogs');
  const api = useService(ApiClient);
  const lang = useService(I18nService).language;
  const [runs, setRuns] = useState<NodeRun[]>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<number>();
  useEffect(() => {
    let live = true;
    api.get<{ items: NodeRun[] }>(nodeRunsPath(node.id)).then(
      (r) => live && (setRuns(r.items), setError(undefined)),
      (e: Error) => live && setError(e.message),
    );
    return () => void (live = false);
  }, [api, node.id, node.status, node.last_run]);

  if (error) {
    return (
      <Callout intent="danger" title={String(t('common.error'))} data-testid="runs-error">
        {error}
      </Callout>
    );
  }
  if (!runs) return <Spinner size={24} />;
  if (!runs.length) {
    return (
      <Callout intent="primary" icon="info-sign" data-testid="runs-empty">
        {t('runs.none')}
      </Callout>
    );
  }
  return (
    <>
      <HTMLTable compact interactive striped style={{ width: '100%' }} data-testid="runs-table">
        <thead>
          <tr>
            <th>{t('run.status')}</th>
            <th>{t('run.start')}</th>
            <th>{t('run.end')}</th>
            <th>{t('run.user')}</th>
            <th>{t('run.duration')}</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr
              key={r.id}
              tabIndex={0}
              data-testid={`run-row-${r.id}`}
              aria-label={String(t('runs.open', { id: r.id }))}
              style={{ cursor: 'pointer' }}
              onClick={() => setOpen(r.id)}
              onKeyDown={(e) => e.key === 'Enter' && setOpen(r.id)}
            >
              <td>
                <Tag intent={STATUS_INTENT[r.status]} minimal>
                  {t(runStatusKey(r.status))}
                </Tag>
                {r.skipped && <span className="wb-muted"> {t('run.skipped')}</span>}
              </td>
              <td>{formatDateTime(r.start, lang)}</td>
              <td>{formatDateTime(r.end, lang)}</td>
              <td>{r.user_name ?? '–'}</td>
              <td>{formatDuration(r.start, r.end, lang)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {open !== undefined && <NodeRunDetails runId={open} onClose={() => setOpen(undefined)} />}
    </>
  );
});
