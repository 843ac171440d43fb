import { Link, useEffect, useState } from '@werkbank/sdk/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, Spinner, Tag } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, NotificationService, observer, useService, useT } from '@werkbank/sdk/browser';
import { NODERUN_PATH, type NodeRun } from '../../common/switchboard-types';
import { formatDateTime, formatDuration, runStatusKey, STATUS_INTENT } from './run-format';
import { SupportRequestForm } from './support-request-form';

interface MomentRef {
  depot_id: number;
  moment_id: number;
}

/** One run as GET /api/v1/noderun/{id}/ replies it (docs/api.md "Running"). */
export interface NodeRunDetail extends NodeRun {
  func_version?: string | null;
  attempt?: number;
  replay_of?: string | null;
  log?: string | null;
  parameters?: Record<string, unknown>;
  moments_read?: MomentRef[];
  moments_written?: MomentRef[];
}

const scroll = { maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-word' } as const;

function Moments({ refs }: { refs: MomentRef[] | undefined }) {
  const t = useT('sb-dialogs');
  if (!refs?.length) return <span className="wb-muted">{t('run.none')}</span>;
  return (
    <span className="wb-chips">
      {refs.map((m) => (
        <Link key={`${m.depot_id}:${m.moment_id}`} to={`/depot/${m.depot_id}/moment/${m.moment_id}`}>
          {t('run.moment_ref', { depot: m.depot_id, moment: m.moment_id })}
        </Link>
      ))}
    </span>
  );
}

/**
 * The node run details modal (spec 000 §2): status, times, user, exception, stacktrace, log,
 * parameters, moments read and written; Replay when the run kept its inputs; for a failed run the
 * support request (spec 000 §5).
 */
export const NodeRunDetails = observer(function NodeRunDetails({ runId, onClose }: { runId: number; onClose(): void }) {
  const t = useT('sb-dialogs');
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const lang = useService(I18nService).language;
  const [run, setRun] = useState<NodeRunDetail>();
  const [error, setError] = useState<string>();
  const [replaying, setReplaying] = useState(false);
  useEffect(() => {
    let live = true;
    api.get<NodeRunDetail>(`${NODERUN_PATH}${runId}/`).then(
      (r) => live && setRun(r),
      (e: Error) => live && setError(e.message),
    );
    return () => void (live = false);
  }, [api, runId]);
  const replay = async () => {
    setReplaying(true);
    try {
      await api.post(`${NODERUN_PATH}${runId}/replay/`, {});
      notifications.success(String(t('run.replay_started')));
    } catch (e) {
      notifications.error((e as Error).message);
    } finally {
      setReplaying(false);
    }
  };
  const params = Object.entries(run?.parameters ?? {});
  return (
    <Dialog
      isOpen
      icon="history"
      title={t('run.title', { id: runId })}
      onClose={onClose}
      style={{ width: 720, maxWidth: '95vw' }}
    >
      <DialogBody>
        <div data-testid="run-details">
          {error && (
            <Callout intent="danger" title={String(t('common.error'))}>
              {error}
            </Callout>
          )}
          {!run && !error && <Spinner size={24} />}
          {run && (
            <>
              <HTMLTable compact className="wb-gap">
                <tbody>
                  <tr>
                    <th>{t('run.status')}</th>
                    <td>
                      <Tag intent={STATUS_INTENT[run.status]} data-testid="run-status">
                        {t(runStatusKey(run.status))}
                      </Tag>{' '}
                      {run.skipped && <Tag minimal>{t('run.skipped')}</Tag>}
                    </td>
                  </tr>
                  <tr>
                    <th>{t('run.function')}</th>
                    <td>
                      <code>{run.func}</code> {run.func_version ? t('run.version', { version: run.func_version }) : ''}
                    </td>
                  </tr>
                  <tr>
                    <th>{t('run.start')}</th>
                    <td>{formatDateTime(run.start, lang)}</td>
                  </tr>
                  <tr>
                    <th>{t('run.end')}</th>
                    <td>{formatDateTime(run.end, lang)}</td>
                  </tr>
                  <tr>
                    <th>{t('run.duration')}</th>
                    <td>{formatDuration(run.start, run.end, lang)}</td>
                  </tr>
                  <tr>
                    <th>{t('run.user')}</th>
                    <td>{run.user_name ?? '–'}</td>
                  </tr>
                  <tr>
                    <th>{t('run.moments_read')}</th>
                    <td>
                      <Moments refs={run.moments_read} />
                    </td>
                  </tr>
                  <tr>
                    <th>{t('run.moments_written')}</th>
                    <td>
                      <Moments refs={run.moments_written} />
                    </td>
                  </tr>
                </tbody>
              </HTMLTable>
              {run.exception && (
                <Callout intent="danger" title={String(t('run.exception'))} className="wb-gap" data-testid="run-exception">
                  {run.exception}
                </Callout>
              )}
              {run.stacktrace && (
                <details className="wb-gap" open={run.status === 'failure'}>
                  <summary>{t('run.stacktrace')}</summary>
                  <pre data-testid="run-stacktrace" style={scroll}>
                    {run.stacktrace}
                  </pre>
                </details>
              )}
              <details className="wb-gap">
                <summary>{t('run.log')}</summary>
                <pre data-testid="run-log" style={scroll}>
                  {run.log || t('run.no_log')}
                </pre>
              </details>
              <details className="wb-gap">
                <summary>{t('run.parameters')}</summary>
                {params.length ? (
                  <HTMLTable compact data-testid="run-parameters">
                    <tbody>
                      {params.map(([name, value]) => (
                        <tr key={name}>
                          <th>{name}</th>
                          <td>
                            <code>{JSON.stringify(value)}</code>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </HTMLTable>
                ) : (
                  <p className="wb-muted">{t('run.no_parameters')}</p>
                )}
              </details>
              {run.status === 'failure' && <SupportRequestForm runId={run.id} />}
            </>
          )}
        </div>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {run?.replayable && (
              <Button
                icon="redo"
                text={t('run.replay')}
                loading={replaying}
                data-testid="run-replay"
                onClick={() => void replay()}
              />
            )}
            <Button text={t('common.close')} onClick={onClose} />
          </>
        }
      />
    </Dialog>
  );
});
