import { FilterSyntaxError, tokenize, type Token } from './filter-tokenizer';
import type { FilterFailure } from './geometry-items';

/** How deep parentheses and `not` may nest before the expression is refused. */
export const MAX_FILTER_DEPTH = 50;

export type Literal = string | number | boolean | null;
export type Operand = { kind: 'literal'; value: Literal } | { kind: 'property'; name: string };
export type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A parsed filter expression. */
export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; operand: FilterNode }
  | { kind: 'compare'; op: Comparison; left: Operand; right: Operand }
  | { kind: 'in'; operand: Operand; values: Literal[]; negated: boolean }
  | { kind: 'like'; operand: Operand; pattern: string; negated: boolean }
  | { kind: 'test'; operand: Operand };

const COMPARISONS = new Set(['=', '!=', '<', '<=', '>', '>=']);

/**
 * Parses a filter expression (recursive descent, no eval):
 *   or := and ('or' and)* ; and := not ('and' not)* ; not := 'not' not | condition
 *   condition := operand [ cmp operand | ['not'] 'in' '(' literal, … ')' | ['not'] 'like' 'text' ]
 *   operand := literal | property | '(' or ')'
 * Throws FilterSyntaxError naming the column of the problem.
 */
export function parseFilter(source: string): FilterNode {
  const tokens = tokenize(source);
  let pos = 0;
  let depth = 0;
  const peek = (): Token => tokens[pos];
  const isKeyword = (text: string, t = peek()) => t.kind === 'keyword' && t.text === text;
  const isOp = (text: string, t = peek()) => t.kind === 'op' && t.text === text;
  const fail = (code: FilterFailure, t = peek()): never => {
    throw t.kind === 'end'
      ? new FilterSyntaxError('unexpected_end', t.column)
      : new FilterSyntaxError(code, t.column, { found: t.text });
  };
  const nest = (t: Token) => {
    if (++depth > MAX_FILTER_DEPTH) throw new FilterSyntaxError('too_deep', t.column, { max: MAX_FILTER_DEPTH });
  };

  function or(): FilterNode {
    let left = and();
    while (isKeyword('or')) {
      pos++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  }

  function and(): FilterNode {
    let left = not();
    while (isKeyword('and')) {
      pos++;
      left = { kind: 'and', left, right: not() };
    }
    return left;
  }

  function not(): FilterNode {
    const t = peek();
    if (!isKeyword('not')) return condition();
    pos++;
    nest(t);
    const operand = not();
    depth--;
    return { kind: 'not', operand };
  }

  function condition(): FilterNode {
    if (isOp('(')) {
      const open = tokens[pos++];
      nest(open);
      const inner = or();
      if (!isOp(')')) fail('expected_close');
      pos++;
      depth--;
      return inner;
    }
    const left = operand();
    const t = peek();
    if (t.kind === 'op' && COMPARISONS.has(t.text)) {
      pos++;
      return { kind: 'compare', op: t.text as Comparison, left, right: operand() };
    }
    const negated = isKeyword('not') && (isKeyword('in', tokens[pos + 1]) || isKeyword('like', tokens[pos + 1]));
    if (negated) pos++;
    if (isKeyword('in')) {
      pos++;
      return { kind: 'in', operand: left, values: list(), negated };
    }
    if (isKeyword('like')) {
      pos++;
      const pattern = peek();
      if (pattern.kind !== 'string') fail('expected_pattern');
      pos++;
      return { kind: 'like', operand: left, pattern: String(pattern.value), negated };
    }
    return { kind: 'test', operand: left };
  }

  function list(): Literal[] {
    if (!isOp('(')) fail('expected_list');
    pos++;
    const values: Literal[] = [literal()];
    while (isOp(',')) {
      pos++;
      values.push(literal());
    }
    if (!isOp(')')) fail('expected_close');
    pos++;
    return values;
  }

  function literal(): Literal {
    const t = peek();
    const value = literalOf(t);
    if (value === undefined) fail('expected_literal');
    pos++;
    return value as Literal;
  }

  function operand(): Operand {
    const t = peek();
    if (t.kind === 'name') {
      pos++;
      return { kind: 'property', name: t.text };
    }
    return { kind: 'literal', value: literal() };
  }

  const tree = or();
  if (peek().kind !== 'end') fail('expected_end');
  return tree;
}

function literalOf(t: Token): Literal | undefined {
  if (t.kind === 'number' || t.kind === 'string') return t.value;
  if (t.kind !== 'keyword') return undefined;
  return t.text === 'true' ? true : t.text === 'false' ? false : t.text === 'null' ? null : undefined;
}
