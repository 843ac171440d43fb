/** A cell of a row datum (the row type's values, plugins/types core-types.ts). */
export type Cell = string | number | boolean | null;

const NUMBER_POINT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const NUMBER_COMMA = /^[+-]?(\d+(,\d*)?|,\d+)([eE][+-]?\d+)?$/;
/** Digits with a leading zero (postal codes, ids such as 01067) stay text: a number would lose the zero. */
const LEADING_ZERO = /^[+-]?0\d/;

/**
 * A CSV cell as a row value: empty → null; a number written with `decimal` as its decimal mark
 * (no thousands separators) → number; anything else stays text, untrimmed.
 */
export function cellValue(text: string, decimal: string): Cell {
  if (text === '') return null;
  const t = text.trim();
  const pattern = decimal === ',' ? NUMBER_COMMA : NUMBER_POINT;
  if (!pattern.test(t) || LEADING_ZERO.test(t)) return text;
  const n = Number(decimal === ',' ? t.replace(',', '.') : t);
  return Number.isFinite(n) ? n : text;
}

/** A row value as a CSV cell: numbers with `decimal` as their decimal mark, null as empty. */
export function cellText(value: unknown, decimal: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return decimal === '.' ? String(value) : String(value).replace('.', decimal);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `text` quoted for CSV (RFC 4180) when it holds the separator, a quote or a line break. */
export function quoteCell(text: string, sep: string): string {
  if (!text.includes(sep) && !/["\r\n]/.test(text) && text.trim() === text) return text;
  return `"${text.replaceAll('"', '""')}"`;
}
