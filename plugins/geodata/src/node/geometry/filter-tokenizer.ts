import type { FilterFailure } from './geometry-items';
/** Limits that keep hostile filter expressions cheap to refuse. */
export const MAX_FILTER_LENGTH = 10_000;

export type TokenKind = 'number' | 'string' | 'name' | 'keyword' | 'op' | 'end';

/** A token with its 1-based column in the expression. */
export interface Token {
  kind: TokenKind;
  /** The keyword in lower case, the operator, the property name or the literal's text. */
  text: string;
  value?: number | string;
  column: number;
}

/**
 * A mistake in a filter expression: `code` picks the message (`geodata-geometry:errors.filter_<code>`),
 * `column` is 1-based.
 */
export class FilterSyntaxError extends Error {
  constructor(
    readonly code: FilterFailure,
    readonly column: number,
    readonly params: Record<string, unknown> = {},
  ) {
    super(`filter_${code} at column ${column}`);
  }
}

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'like', 'true', 'false', 'null']);
const OPERATORS = ['<=', '>=', '!=', '<>', '=', '<', '>', '(', ')', ','];
const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_.]/u;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;

/**
 * Splits a filter expression into tokens. Texts are in single quotes ('it''s'), property names are
 * bare (letters, digits, _ and .) or in double quotes ("Name mit Leerzeichen"). Throws
 * FilterSyntaxError naming the column.
 */
export function tokenize(source: string): Token[] {
  if (source.length > MAX_FILTER_LENGTH) {
    throw new FilterSyntaxError('too_long', MAX_FILTER_LENGTH + 1, { max: MAX_FILTER_LENGTH });
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const column = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'" || c === '"') {
      const [text, next] = quoted(source, i);
      tokens.push(c === "'" ? { kind: 'string', text, value: text, column } : { kind: 'name', text, column });
      i = next;
    } else if (/[\d.]/.test(c) || (c === '-' && /[\d.]/.test(source[i + 1] ?? ''))) {
      const match = NUMBER.exec(source.slice(i, i + 400));
      if (!match || NAME_PART.test(source[i + match[0].length] ?? '')) {
        throw new FilterSyntaxError('invalid_number', column);
      }
      tokens.push({ kind: 'number', text: match[0], value: Number(match[0]), column });
      i += match[0].length;
    } else if (NAME_START.test(c)) {
      let end = i + 1;
      while (end < source.length && NAME_PART.test(source[end])) end++;
      const text = source.slice(i, end);
      const lower = text.toLowerCase();
      tokens.push(KEYWORDS.has(lower) ? { kind: 'keyword', text: lower, column } : { kind: 'name', text, column });
      i = end;
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i));
      if (!op) throw new FilterSyntaxError('unexpected_char', column, { char: c });
      tokens.push({ kind: 'op', text: op === '<>' ? '!=' : op, column });
      i += op.length;
    }
  }
  tokens.push({ kind: 'end', text: '', column: source.length + 1 });
  return tokens;
}

/** The text between the quotes starting at `start` (a doubled quote is one quote) and the index after it. */
function quoted(source: string, start: number): [string, number] {
  const quote = source[start];
  let text = '';
  let i = start + 1;
  for (;;) {
    const j = source.indexOf(quote, i);
    if (j < 0) throw new FilterSyntaxError(quote === "'" ? 'unterminated_string' : 'unterminated_name', start + 1);
    text += source.slice(i, j);
    if (source[j + 1] !== quote) return [text, j + 1];
    text += quote;
    i = j + 2;
  }
}
