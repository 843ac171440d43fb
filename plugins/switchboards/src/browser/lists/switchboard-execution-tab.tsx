import { Callout, Checkbox, FormGroup, Radio, RadioGroup } from '@werkbank/sdk/ui';
import { I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import { describeNextRun, formatRecurrence, nextRun } from '../../common/recurrence';
import type { Switchboard } from '../../common/switchboard-types';
import { DEFAULT_RECURRENCE, readRecurrence, RecurrenceEditor } from './recurrence-editor';
import { ApiUrlField } from './api-url-field';

export type ExecutionFields = Pick<Switchboard, 'automatic' | 'periodic_execution' | 'periodic_execution_rule' | 'api_url'>;

/**
 * 'The next scheduled execution is {{date}} at {{time}}' for the rule as edited (spec 002 §5),
 * from now, in Europe/Berlin; a rule that never runs again says so.
 */
export const NextRunText = observer(function NextRunText({ rule }: { rule: string }) {
  const t = useT('sb-lists');
  const i18n = useService(I18nService);
  const { rule: parsed, error } = readRecurrence(rule);
  if (error) return null;
  const next = nextRun(parsed, new Date());
  return (
    <Callout intent="primary" icon="time" className="wb-gap" data-testid="next-run">
      {next ? t('execution.next_run', { ...describeNextRun(next, i18n.language) }) : t('execution.never_runs')}
    </Callout>
  );
});

/**
 * The Execution tab of the switchboard editor (spec 002 §2, §4): execute on change (Automatic:
 * when a depot it reads gets an approved moment; Manually), a 'time-based execution' checkbox with
 * the recurrence editor and the next run (shown only while ticked), and the API call address.
 * Turning scheduling on or changing the rule needs the right to run it (docs/api.md: 403
 * schedule_denied); without it only turning off is offered.
 */
export function SwitchboardExecutionTab({
  sb,
  readOnly,
  mayExecute,
  onChange,
}: {
  sb: ExecutionFields;
  readOnly: boolean;
  mayExecute: boolean;
  onChange(patch: Partial<ExecutionFields>): void;
}) {
  const t = useT('sb-lists');
  const rule = sb.periodic_execution_rule ?? '';
  const setPeriodic = (on: boolean) =>
    onChange({
      periodic_execution: on,
      ...(on && !rule.trim() ? { periodic_execution_rule: formatRecurrence(DEFAULT_RECURRENCE) } : {}),
    });
  return (
    <>
      {!readOnly && !mayExecute && (
        <Callout intent="primary" icon="lock" className="wb-gap" data-testid="schedule-needs-execute">
          {t('execution.needs_execute')}
        </Callout>
      )}
      <RadioGroup
        label={t('execution.on_change')}
        inline
        disabled={readOnly}
        selectedValue={sb.automatic ? 'automatic' : 'manual'}
        onChange={(e) => onChange({ automatic: e.currentTarget.value === 'automatic' })}
      >
        <Radio
          value="automatic"
          label={String(t('execution.automatic'))}
          data-testid="execution-automatic"
          disabled={readOnly || (!mayExecute && !sb.automatic)}
        />
        <Radio value="manual" label={String(t('execution.manual'))} data-testid="execution-manual" disabled={readOnly} />
      </RadioGroup>
      <p className="wb-muted">{t(sb.automatic ? 'execution.automatic_help' : 'execution.manual_help')}</p>
      <Checkbox
        label={String(t('execution.periodic'))}
        data-testid="execution-periodic"
        checked={!!sb.periodic_execution}
        disabled={readOnly || (!mayExecute && !sb.periodic_execution)}
        onChange={(e) => setPeriodic(e.currentTarget.checked)}
      />
      {sb.periodic_execution && (
        <>
          <RecurrenceEditor
            value={rule}
            disabled={readOnly || !mayExecute}
            onChange={(periodic_execution_rule) => onChange({ periodic_execution_rule })}
          />
          <NextRunText rule={rule} />
        </>
      )}
      {sb.api_url && (
        <FormGroup label={t('execution.api_url')} labelFor="switchboard-api-url" helperText={t('execution.api_url_help')}>
          <ApiUrlField path={sb.api_url} />
        </FormGroup>
      )}
    </>
  );
}
