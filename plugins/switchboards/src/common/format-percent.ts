/** spec 000 §9: progress in percent with one decimal, in the user's number format. */
export function formatPercent(value: number, lang: string): string {
  const n = new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${n.format(value)} %`;
}
