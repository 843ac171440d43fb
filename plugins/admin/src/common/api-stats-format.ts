export { API_CALLS_PATH, type ApiCallStatistic } from '@werkbank/sdk';

/** spec 002 §9: HTTP status badges: 2xx success, 3xx warning, 4xx and above danger. */
export function statusIntent(code: number): 'success' | 'warning' | 'danger' | 'none' {
  if (code >= 400) return 'danger';
  if (code >= 300) return 'warning';
  if (code >= 200) return 'success';
  return 'none';
}

/**
 * spec 002 §9: durations under 1000 ms in ms, otherwise seconds with two decimals, in the
 * language's number format (`12.3 ms`, `1,25 s`).
 */
export function formatDuration(ms: number, language: string): string {
  const locale = language === 'de' ? 'de-DE' : 'en-GB';
  if (ms < 1000) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(ms)} ms`;
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(ms / 1000)} s`;
}

/** A `YYYY-MM` month as the language names it (`November 2026`). */
export function formatMonth(month: string, language: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  return new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
}
