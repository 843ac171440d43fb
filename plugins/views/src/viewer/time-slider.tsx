/** The viewer's time slider (decision 0091): a day between the earliest and latest time of the view's entries. */
import type { ReactElement } from '@werkbank/sdk/globe';
import type { ViewerT } from './viewer-i18n';

const DAY = 86_400_000;

export function TimeSlider(props: {
  range: [string, string];
  /** The chosen time (ISO 8601), or null: every entry shown, whatever its time. */
  value: string | null;
  onChange(time: string | null): void;
  t: ViewerT;
  lang: string;
}): ReactElement {
  const { t } = props;
  const start = Date.parse(props.range[0]);
  const days = Math.max(0, Math.round((Date.parse(props.range[1]) - start) / DAY));
  const chosen = props.value ? Math.round((Date.parse(props.value) - start) / DAY) : days;
  const date = (d: number) => new Date(start + d * DAY).toLocaleDateString(props.lang, { timeZone: 'UTC' });
  return (
    <div className="wbv-time">
      <label htmlFor="wbv-time">{t('time')}</label>
      <input
        id="wbv-time"
        type="range"
        min={0}
        max={days}
        step={1}
        value={chosen}
        aria-valuetext={date(chosen)}
        onChange={(e) => props.onChange(new Date(start + Number(e.target.value) * DAY).toISOString())}
      />
      <p aria-live="polite">{props.value ? t('time_value', { date: date(chosen) }) : null}</p>
      {props.value && (
        <button type="button" className="wbv-button" onClick={() => props.onChange(null)}>
          {t('time_reset')}
        </button>
      )}
    </div>
  );
}
