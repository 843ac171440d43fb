const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/**
 * A byte count for people: 1536 → '1.5 KB' ('1,5 KB' in German); steps of 1024, one fraction digit
 * below 100. Anything that is not a finite number gives ''.
 */
export function formatBytes(bytes: unknown, language = 'en'): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '';
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const text = new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB', { maximumFractionDigits: digits }).format(value);
  return `${text} ${UNITS[unit]}`;
}
