import { ProgressBar, Tag, type Intent } from '@werkbank/sdk/ui';
import { I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import { describeNextRun } from '../../common/recurrence';
import { formatPercent } from '../../common/format-percent';
import type { RunStatus, Switchboard } from '../../common/switchboard-types';

/**
 * spec 002 §4: initialized 'Created', waiting and started 'Running', success 'Executed
 * successfully', failure 'Failed' (cancelled: stopped before it ran).
 */
const STATUS: Record<RunStatus, { key: string; intent: Intent }> = {
  initialized: { key: 'status.initialized', intent: 'none' },
  waiting: { key: 'status.started', intent: 'primary' },
  started: { key: 'status.started', intent: 'primary' },
  success: { key: 'status.success', intent: 'success' },
  failure: { key: 'status.failure', intent: 'danger' },
  cancelled: { key: 'status.cancelled', intent: 'warning' },
};

/** The translation key of a switchboard's status text. */
export const statusKey = (status: RunStatus) => (STATUS[status] ?? STATUS.initialized).key;

/** The status as a coloured tag. */
export function SwitchboardStatusTag({ status }: { status: RunStatus }) {
  const t = useT('sb-lists');
  const s = STATUS[status] ?? STATUS.initialized;
  return (
    <Tag minimal intent={s.intent} data-testid="switchboard-status">
      {t(s.key)}
    </Tag>
  );
}

/** A bar and the percentage of the latest execution; moving while it runs. Nothing before a first run. */
export const SwitchboardProgress = observer(function SwitchboardProgress({
  sb,
}: {
  sb: Pick<Switchboard, 'status' | 'progress'>;
}) {
  const i18n = useService(I18nService);
  if (sb.status === 'initialized') return null;
  const total = Math.min(100, Math.max(0, sb.progress?.total ?? 0));
  const running = sb.status === 'started' || sb.status === 'waiting';
  return (
    <span className="wb-sb-progress" style={{ display: 'inline-flex', alignItems: 'center', gap: 6, minWidth: 120 }}>
      <ProgressBar
        value={total / 100}
        animate={running}
        stripes={running}
        intent={STATUS[sb.status]?.intent}
        aria-label={formatPercent(total, i18n.language)}
      />
      <span className="wb-muted" data-testid="switchboard-progress">
        {formatPercent(total, i18n.language)}
      </span>
    </span>
  );
});

/**
 * Whether the switchboard runs by itself (spec 002 §4): 'Automatic' (when a depot it reads gets an
 * approved moment) and 'Periodic' with the next run in Europe/Berlin time; nothing when manual.
 */
export const ScheduleInfo = observer(function ScheduleInfo({
  sb,
}: {
  sb: Pick<Switchboard, 'automatic' | 'periodic_execution' | 'next_run'>;
}) {
  const t = useT('sb-lists');
  const i18n = useService(I18nService);
  if (!sb.automatic && !sb.periodic_execution) return null;
  const next = sb.next_run ? describeNextRun(new Date(sb.next_run), i18n.language) : undefined;
  return (
    <span className="wb-sb-schedule" data-testid="switchboard-schedule">
      {sb.automatic && (
        <Tag minimal icon="automatic-updates" intent="primary">
          {t('schedule.automatic')}
        </Tag>
      )}{' '}
      {sb.periodic_execution && (
        <Tag minimal icon="time" intent="primary">
          {next ? t('schedule.periodic_next', { ...next }) : t('schedule.periodic')}
        </Tag>
      )}
    </span>
  );
});
