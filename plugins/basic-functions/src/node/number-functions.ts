import type { FunctionContribution, FunctionDescriptor } from '@werkbank/sdk/node';
import { elementWise, failure, itemsOf, mapChunked, paramOf, valueOf } from './frame-items';

const num = (name: string) => ({ name, content_type: 'number' });
const PAIR = { a: 'number', b: 'number' } as const;

/** A finite result; a failure naming the item otherwise (JSON has no infinities). */
function finite(x: number, i: number): number {
  if (!Number.isFinite(x)) throw failure('not_finite', { item: `result[${i}]` });
  return x;
}

/** Rounds halves away from zero, at `digits` decimal places (0..15). */
export function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return (Math.sign(x) * Math.round(Math.abs(x) * f * (1 + Number.EPSILON))) / f;
}

function arithmetic(
  id: string,
  de: string,
  en: string,
  doc: { de: string; en: string },
  op: (a: number, b: number, i: number) => number,
) {
  return {
    id,
    version: '1',
    verbose_name: { de, en },
    doc,
    inputs: [num('a'), num('b')],
    outputs: [num('result')],
    run: async (inputs, ctx) => ({ result: await elementWise(inputs, PAIR, ctx, (v, i) => finite(op(v.a, v.b, i), i)) }),
  } satisfies FunctionDescriptor;
}

const COMPARISONS = new Map<string, (a: number, b: number) => boolean>([
  ['<', (a, b) => a < b],
  ['<=', (a, b) => a <= b],
  ['==', (a, b) => a === b],
  ['!=', (a, b) => a !== b],
  ['>=', (a, b) => a >= b],
  ['>', (a, b) => a > b],
]);

/** Arithmetic element-wise over the items of a and b (a one-item input goes with every item). */
export const NUMBER_FUNCTIONS: FunctionDescriptor[] = [
  arithmetic('number.add', 'Addieren', 'Add', { de: 'a + b für jedes Element.', en: 'a + b for every item.' }, (a, b) => a + b),
  arithmetic(
    'number.subtract',
    'Subtrahieren',
    'Subtract',
    { de: 'a − b für jedes Element.', en: 'a − b for every item.' },
    (a, b) => a - b,
  ),
  arithmetic(
    'number.multiply',
    'Multiplizieren',
    'Multiply',
    { de: 'a × b für jedes Element.', en: 'a × b for every item.' },
    (a, b) => a * b,
  ),
  arithmetic(
    'number.divide',
    'Dividieren',
    'Divide',
    {
      de: 'a ÷ b für jedes Element; eine Division durch null schlägt fehl.',
      en: 'a ÷ b for every item; dividing by zero fails.',
    },
    (a, b, i) => {
      if (b === 0) throw failure('division_by_zero', { item: `b[${i}]` });
      return a / b;
    },
  ),
  {
    id: 'number.round',
    version: '1',
    verbose_name: { de: 'Runden', en: 'Round' },
    doc: {
      de: 'Rundet jede Zahl auf digits Nachkommastellen (0 bis 15, Standard 0); Hälften werden von null weg gerundet.',
      en: 'Rounds every number to digits decimal places (0 to 15, default 0); halves round away from zero.',
    },
    inputs: [num('value'), { name: 'digits', content_type: 'int', is_optional: true, default_value: { value: 0 } }],
    outputs: [num('result')],
    run: async (inputs, ctx) => {
      const digits = paramOf(inputs, 'digits', 0);
      if (typeof digits !== 'number' || !Number.isInteger(digits) || digits < 0 || digits > 15) throw failure('invalid_digits');
      return { result: await elementWise(inputs, { value: 'number' }, ctx, (v) => roundTo(v.value, digits)) };
    },
  },
  {
    id: 'number.sum',
    version: '1',
    verbose_name: { de: 'Summe', en: 'Sum' },
    doc: {
      de: 'Die Summe aller Zahlen als ein Element (0 ohne Elemente).',
      en: 'The sum of all numbers as one item (0 without items).',
    },
    inputs: [num('values')],
    outputs: [num('result')],
    run: async (inputs, ctx) => {
      const items = itemsOf(inputs, 'values');
      let sum = 0;
      await mapChunked(items.length, ctx, (i) => (sum += valueOf(items[i], 'number', 'values', i)));
      return { result: [{ value: finite(sum, 0) }] };
    },
  },
  {
    id: 'number.compare',
    version: '1',
    verbose_name: { de: 'Zahlen vergleichen', en: 'Compare numbers' },
    doc: {
      de: 'Vergleicht a und b für jedes Element mit dem Operator (<, <=, ==, !=, >=, >; Standard ==) und gibt wahr oder falsch.',
      en: 'Compares a and b for every item with the operator (<, <=, ==, !=, >=, >; default ==) and gives true or false.',
    },
    inputs: [num('a'), num('b'), { name: 'operator', content_type: 'string', is_optional: true, default_value: { value: '==' } }],
    outputs: [{ name: 'result', content_type: 'bool' }],
    run: async (inputs, ctx) => {
      const operator = paramOf(inputs, 'operator', '==');
      const compare = typeof operator === 'string' ? COMPARISONS.get(operator.trim()) : undefined;
      if (!compare) throw failure('invalid_operator', { operator: String(operator) });
      return { result: await elementWise(inputs, PAIR, ctx, (v) => compare(v.a, v.b)) };
    },
  },
];

export const numberFunctions: FunctionContribution = {
  registerFunctions: (registry) => NUMBER_FUNCTIONS.forEach((f) => registry.add(f)),
};
