/** spec 001 §2.7: numbers show up to 20 fraction digits. */
export const MAX_FRACTION_DIGITS = 20;

/** spec 001 §2.7: text longer than this gets a tooltip. */
export const TOOLTIP_AFTER_CHARS = 8;

const locale = (language: string) => (language === 'de' ? 'de-DE' : 'en-GB');

/**
 * A number for people: the shortest digits that give the number back, up to 20 fraction digits,
 * the decimal mark of the language and no grouping (so it can be edited and read back).
 */
export function formatNumber(value: number, language: string): string {
  if (!Number.isFinite(value)) return String(value);
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits: MAX_FRACTION_DIGITS, useGrouping: false }).format(
    value,
  );
}

/** A value as a line of text: numbers by formatNumber, objects as JSON, null and undefined empty. */
export function formatValue(value: unknown, language: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return formatNumber(value, language);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A byte count for people (the SDK's, one for every plugin). */
export { formatBytes } from '@werkbank/sdk/browser';

/** The tooltip of a cell's text: the text itself when it is longer than 8 characters. */
export const tooltipOf = (text: string): string | undefined => (text.length > TOOLTIP_AFTER_CHARS ? text : undefined);
