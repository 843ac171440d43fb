const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** A byte count for people: 1536 → '1.5 KB' ('1,5 KB' in German); steps of 1024. */
export function formatBytes(bytes: number | null | undefined, language = 'en'): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '';
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
