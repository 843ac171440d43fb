import { formatValue } from '../value-format';

/**
 * How a column's cells are edited and shown: `text`, `number` and `int` (empty is null where the
 * column allows it), `bool`, `colour` (a hex value), `datetime` (ISO 8601), and read-only `json`,
 * `size` and `download`.
 */
export type CellRule = 'text' | 'number' | 'int' | 'bool' | 'colour' | 'datetime' | 'json' | 'size' | 'download';

/** Why an edit was rejected: a translation key suffix of 'sb-frame:table.rejected_*'. */
export type Rejection = 'number' | 'int' | 'colour' | 'datetime' | 'empty';

export type Parsed = { ok: true; value: unknown } | { ok: false; reason: Rejection };

const TRUE_TEXTS = ['1', 'true', 'True'];

/** A decimal number typed with '.' or, in German, ',' as the decimal mark. */
function parseDecimal(text: string): number | undefined {
  const t = text.trim().replace(/\s/g, '');
  const normal = t.includes(',') && !t.includes('.') ? t.replace(',', '.') : t;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(normal)) return undefined;
  const n = Number(normal);
  return Number.isFinite(n) ? n : undefined;
}

/** True when the browser takes `text` as a CSS colour (spec 001 §5.3): CSS.supports, else an option element's style. */
export function browserAcceptsColour(text: string): boolean {
  const v = text.trim();
  if (!v) return false;
  const css = (globalThis as { CSS?: { supports?(p: string, v: string): boolean } }).CSS;
  if (css?.supports) return css.supports('color', v);
  const style = document.createElement('option').style;
  style.color = v;
  return style.color !== '';
}

const hex2 = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, '0');

/** '#rgb', '#rgba', '#rrggbb', '#rrggbbaa' and 'rgb(a)(…)' as '#rrggbb' or '#rrggbbaa'; undefined otherwise. */
function hexOf(text: string): string | undefined {
  const v = text.trim().toLowerCase();
  const short = /^#([0-9a-f]{3,4})$/.exec(v);
  if (short) return `#${[...short[1]].map((c) => c + c).join('')}`;
  if (/^#([0-9a-f]{6}|[0-9a-f]{8})$/.test(v)) return v;
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(v);
  if (!rgb) return undefined;
  const alpha = rgb[4] === undefined ? 1 : rgb[4].endsWith('%') ? parseFloat(rgb[4]) / 100 : parseFloat(rgb[4]);
  const base = `#${hex2(+rgb[1])}${hex2(+rgb[2])}${hex2(+rgb[3])}`;
  return alpha >= 1 ? base : `${base}${hex2(alpha * 255)}`;
}

/** A colour the browser accepts as the hex value colour datums store; 'transparent' is #000000 (spec 001 §5.3). */
export function colourToHex(text: string): string | undefined {
  if (!browserAcceptsColour(text)) return undefined;
  if (text.trim().toLowerCase() === 'transparent') return '#000000';
  const direct = hexOf(text);
  if (direct) return direct;
  // A named colour: the browser resolves it to rgb() on an element in the page.
  const probe = document.createElement('span');
  probe.style.color = text.trim();
  document.body.appendChild(probe);
  try {
    return hexOf(getComputedStyle(probe).color);
  } finally {
    probe.remove();
  }
}

/**
 * Reads an edited cell's text by the column's rule (spec 001 §5.3): bool takes 1, true or True as
 * true and anything else as false; colours must be accepted by the browser; datetimes must be
 * parseable (stored as ISO 8601 in UTC); numbers take '.' or ',' as the decimal mark.
 */
export function parseCell(rule: CellRule, text: string, nullable: boolean): Parsed {
  const empty = text.trim() === '';
  switch (rule) {
    case 'bool':
      return { ok: true, value: TRUE_TEXTS.includes(text.trim()) };
    case 'number':
    case 'int': {
      if (empty) return nullable ? { ok: true, value: null } : { ok: false, reason: 'empty' };
      const n = parseDecimal(text);
      if (n === undefined) return { ok: false, reason: 'number' };
      if (rule === 'int' && !Number.isInteger(n)) return { ok: false, reason: 'int' };
      return { ok: true, value: n };
    }
    case 'colour': {
      const hex = colourToHex(text);
      return hex ? { ok: true, value: hex } : { ok: false, reason: 'colour' };
    }
    case 'datetime': {
      const ms = empty ? NaN : Date.parse(text.trim());
      return Number.isNaN(ms) ? { ok: false, reason: 'datetime' } : { ok: true, value: new Date(ms).toISOString() };
    }
    default:
      return { ok: true, value: text };
  }
}

/** A cell's text; booleans as true/false. */
export function cellText(value: unknown, language: string): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return formatValue(value, language);
}

/** The rule of a column of free values (row values, feature properties), from the values it holds. */
export function ruleOfValues(values: unknown[]): CellRule {
  const first = values.find((v) => v !== null && v !== undefined);
  if (typeof first === 'number') return 'number';
  if (typeof first === 'boolean') return 'bool';
  if (first !== undefined && typeof first === 'object') return 'json';
  return 'text';
}
