/** Date, time (seconds and fraction optional), optional offset: `2026-05-01T12:00:00Z`, `2026-05-01 12:00+02:00`. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The `date-time` format of datum schemas (spec 001 §5.3 "Datetime edits are rejected unless
 * parseable"): an ISO 8601 date and time that Date.parse accepts, on a day the month has.
 */
export function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m || Number.isNaN(Date.parse(text))) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}
