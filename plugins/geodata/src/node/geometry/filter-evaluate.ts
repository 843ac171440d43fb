import type { FilterNode, Literal, Operand } from './filter-parser';

type Props = Record<string, unknown>;

/**
 * Whether a feature's properties pass the filter. A missing property is null; `=` and `!=` compare
 * strictly (1 != '1'); `<`…`>=` are true only for two numbers or two texts; `like` only matches
 * texts; a bare operand passes when it is true.
 */
export function evaluateFilter(node: FilterNode, props: Props): boolean {
  switch (node.kind) {
    case 'and':
      return evaluateFilter(node.left, props) && evaluateFilter(node.right, props);
    case 'or':
      return evaluateFilter(node.left, props) || evaluateFilter(node.right, props);
    case 'not':
      return !evaluateFilter(node.operand, props);
    case 'test':
      return valueOf(node.operand, props) === true;
    case 'in': {
      const v = valueOf(node.operand, props);
      return node.values.some((x) => x === v) !== node.negated;
    }
    case 'like': {
      const v = valueOf(node.operand, props);
      return typeof v === 'string' && matchesLike(v, node.pattern) !== node.negated;
    }
    case 'compare': {
      const a = valueOf(node.left, props);
      const b = valueOf(node.right, props);
      if (node.op === '=') return a === b;
      if (node.op === '!=') return a !== b;
      if (!(typeof a === 'number' && typeof b === 'number') && !(typeof a === 'string' && typeof b === 'string')) {
        return false;
      }
      if (node.op === '<') return a < b;
      if (node.op === '<=') return a <= b;
      if (node.op === '>') return a > b;
      return a >= b;
    }
  }
}

function valueOf(operand: Operand, props: Props): Literal | object {
  if (operand.kind === 'literal') return operand.value;
  const value = Object.hasOwn(props, operand.name) ? props[operand.name] : null;
  return value === undefined ? null : (value as Literal | object);
}

/**
 * SQL `like`: `%` any run of characters, `_` exactly one; case-sensitive. Two-pointer matching with
 * backtracking to the last `%` only, so hostile patterns stay O(text × pattern).
 */
export function matchesLike(text: string, pattern: string): boolean {
  const t = [...text];
  const p = [...pattern];
  let ti = 0;
  let pi = 0;
  let star = -1;
  let mark = 0;
  while (ti < t.length) {
    if (pi < p.length && (p[pi] === '_' || (p[pi] !== '%' && p[pi] === t[ti]))) {
      ti++;
      pi++;
    } else if (pi < p.length && p[pi] === '%') {
      star = pi++;
      mark = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '%') pi++;
  return pi === p.length;
}
