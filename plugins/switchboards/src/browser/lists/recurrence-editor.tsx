import { Checkbox, FormGroup, HTMLSelect, NumericInput, Callout } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import {
  formatRecurrence,
  MAX_RECURRENCE_INTERVAL,
  normalizeRecurrence,
  parseRecurrence,
  RECURRENCE_FREQUENCIES,
  RECURRENCE_WEEKDAYS,
  RecurrenceError,
  type RecurrenceFrequency,
  type RecurrenceRule,
  type RecurrenceWeekday,
} from '../../common/recurrence';

/** A new schedule starts daily at midnight (Europe/Berlin) until the user picks otherwise. */
export const DEFAULT_RECURRENCE: RecurrenceRule = normalizeRecurrence({ freq: 'daily' });

/** Days per month with February 28 (spec 002 §5: the yearly day-of-month limit). */
const MONTH_LENGTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const two = (n: number) => String(n).padStart(2, '0');

/** The stored rule text as a rule, or the default with the reason it could not be read. */
export function readRecurrence(text: string | null | undefined): { rule: RecurrenceRule; error?: RecurrenceError } {
  if (!text?.trim()) return { rule: DEFAULT_RECURRENCE };
  try {
    return { rule: parseRecurrence(text) };
  } catch (e) {
    if (e instanceof RecurrenceError) return { rule: DEFAULT_RECURRENCE, error: e };
    throw e;
  }
}

/** The highest day of month a rule may name: 31 monthly; yearly the shortest chosen month (February 28). */
export function maxMonthday(rule: Pick<RecurrenceRule, 'freq' | 'months'>): number {
  if (rule.freq !== 'yearly') return 31;
  return Math.min(...(rule.months?.length ? rule.months : [1]).map((m) => MONTH_LENGTH[m - 1]));
}

export interface RecurrenceEditorProps {
  /** The stored RRULE text (`periodic_execution_rule`); empty for the default. */
  value: string;
  /** The normalized text (spec 002 §5 defaults applied) after each change. */
  onChange(value: string): void;
  disabled?: boolean;
}

/**
 * The recurrence editor of spec 002 §5: frequency (hourly, daily, weekly, monthly, yearly) and
 * interval; weekdays for weekly (none picked means Monday); months and day of month for monthly
 * (1-31; none chosen means January) and yearly (1 to the month's length, February 28); hour 0-23
 * and minute 0-59, in Europe/Berlin. Only valid rules can be chosen; a stored rule it cannot read
 * is named and replaced by the default on the first change.
 */
export function RecurrenceEditor({ value, onChange, disabled }: RecurrenceEditorProps) {
  const t = useT('sb-lists');
  const { rule, error } = readRecurrence(value);
  const change = (patch: Partial<RecurrenceRule>) => {
    const next: RecurrenceRule = { ...rule, ...patch };
    if (next.freq === 'monthly' || next.freq === 'yearly') {
      next.monthday = Math.min(next.monthday ?? 1, maxMonthday(next));
    }
    onChange(formatRecurrence(next));
  };
  const toggle = <T,>(list: T[] | undefined, item: T, on: boolean) =>
    on ? [...(list ?? []), item] : (list ?? []).filter((x) => x !== item);
  const freq = rule.freq;
  const interval = rule.interval ?? 1;
  return (
    <div className="wb-recurrence" data-testid="recurrence-editor">
      {error && (
        <Callout intent="warning" className="wb-gap" data-testid="recurrence-unreadable">
          {t('recurrence.unreadable', { reason: t(`errors.${error.key}`) })}
        </Callout>
      )}
      <div className="wb-toolbar">
        <FormGroup label={t('recurrence.frequency')} labelFor="recurrence-freq">
          <HTMLSelect
            id="recurrence-freq"
            data-testid="recurrence-freq"
            disabled={disabled}
            value={freq}
            onChange={(e) => change({ freq: e.target.value as RecurrenceFrequency })}
          >
            {RECURRENCE_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {t(`recurrence.freq_${f}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup
          label={t('recurrence.every')}
          labelFor="recurrence-interval"
          helperText={t(`recurrence.unit_${freq}`, { count: interval })}
        >
          <NumericInput
            id="recurrence-interval"
            data-testid="recurrence-interval"
            disabled={disabled}
            min={1}
            max={MAX_RECURRENCE_INTERVAL}
            minorStepSize={null}
            clampValueOnBlur
            value={interval}
            onValueChange={(n) => Number.isInteger(n) && n >= 1 && n <= MAX_RECURRENCE_INTERVAL && change({ interval: n })}
          />
        </FormGroup>
      </div>
      {freq === 'weekly' && (
        <FormGroup label={t('recurrence.weekdays')} helperText={t('recurrence.weekdays_default')}>
          {RECURRENCE_WEEKDAYS.map((d) => (
            <Checkbox
              key={d}
              inline
              disabled={disabled}
              data-testid={`recurrence-weekday-${d}`}
              label={String(t(`recurrence.weekday_${d}`))}
              checked={!!rule.weekdays?.includes(d)}
              onChange={(e) => change({ weekdays: toggle<RecurrenceWeekday>(rule.weekdays, d, e.currentTarget.checked) })}
            />
          ))}
        </FormGroup>
      )}
      {(freq === 'monthly' || freq === 'yearly') && (
        <>
          <FormGroup label={t('recurrence.months')} helperText={t('recurrence.months_default')}>
            {MONTHS.map((m) => (
              <Checkbox
                key={m}
                inline
                disabled={disabled}
                data-testid={`recurrence-month-${m}`}
                label={String(t(`recurrence.month_${m}`))}
                checked={!!rule.months?.includes(m)}
                onChange={(e) => change({ months: toggle(rule.months, m, e.currentTarget.checked) })}
              />
            ))}
          </FormGroup>
          <FormGroup label={t('recurrence.monthday')} labelFor="recurrence-monthday">
            <HTMLSelect
              id="recurrence-monthday"
              data-testid="recurrence-monthday"
              disabled={disabled}
              value={rule.monthday ?? 1}
              onChange={(e) => change({ monthday: Number(e.target.value) })}
            >
              {range(1, maxMonthday(rule)).map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        </>
      )}
      <div className="wb-toolbar">
        {freq !== 'hourly' && (
          <FormGroup label={t('recurrence.hour')} labelFor="recurrence-hour">
            <HTMLSelect
              id="recurrence-hour"
              data-testid="recurrence-hour"
              disabled={disabled}
              value={rule.hour ?? 0}
              onChange={(e) => change({ hour: Number(e.target.value) })}
            >
              {range(0, 23).map((h) => (
                <option key={h} value={h}>
                  {two(h)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        )}
        <FormGroup label={t('recurrence.minute')} labelFor="recurrence-minute">
          <HTMLSelect
            id="recurrence-minute"
            data-testid="recurrence-minute"
            disabled={disabled}
            value={rule.minute ?? 0}
            onChange={(e) => change({ minute: Number(e.target.value) })}
          >
            {range(0, 59).map((m) => (
              <option key={m} value={m}>
                {two(m)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <span className="wb-muted">{t('recurrence.time_zone')}</span>
      </div>
    </div>
  );
}
