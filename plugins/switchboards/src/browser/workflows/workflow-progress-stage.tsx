import { HTMLTable, ProgressBar, Tag } from '@werkbank/sdk/ui';
import { I18nService, useService, useT } from '@werkbank/sdk/browser';
import { formatPercent } from '../../common/format-percent';
import type { Execution, RunStatus } from '../../common/switchboard-types';

const INTENT: Partial<Record<RunStatus, 'primary' | 'success' | 'danger'>> = {
  started: 'primary',
  success: 'success',
  failure: 'danger',
};

/**
 * The progress stage (spec 000 §2): the execution's progress and status, how many of its steps are
 * done, and each step's status as the polls bring them.
 */
export function WorkflowProgressStage({ execution }: { execution: Execution }) {
  const t = useT('sb-workflows');
  const i18n = useService(I18nService);
  const progress = Math.max(0, Math.min(100, execution.progress ?? 0));
  return (
    <div data-testid="run-progress">
      <p>
        <strong>{t(`run.status_${execution.status}`)}</strong> ·{' '}
        <span data-testid="run-percent">{formatPercent(progress, i18n.language)}</span> ·{' '}
        {t('run.steps', { done: execution.done, total: execution.total })}
      </p>
      <ProgressBar intent="primary" value={progress / 100} />
      {execution.runs.length > 0 && (
        <HTMLTable compact className="wb-gap" data-testid="run-steps">
          <tbody>
            {execution.runs.map((r) => (
              <tr key={r.id}>
                <td>{r.func}</td>
                <td>
                  <Tag minimal intent={INTENT[r.status] ?? 'none'}>
                    {t(`run.status_${r.status}`)}
                  </Tag>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
