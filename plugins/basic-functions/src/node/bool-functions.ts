import type { FunctionContribution, FunctionDescriptor } from '@werkbank/sdk/node';
import { elementWise } from './frame-items';

const bool = (name: string) => ({ name, content_type: 'bool' });
const PAIR = { a: 'boolean', b: 'boolean' } as const;

/** Logic element-wise over the items of the inputs (a one-item input goes with every item). */
export const BOOL_FUNCTIONS: FunctionDescriptor[] = [
  {
    id: 'bool.and',
    version: '1',
    verbose_name: { de: 'Und', en: 'And' },
    doc: { de: 'Wahr, wenn a und b wahr sind (für jedes Element).', en: 'True when both a and b are true (for every item).' },
    inputs: [bool('a'), bool('b')],
    outputs: [bool('result')],
    run: async (inputs, ctx) => ({ result: await elementWise(inputs, PAIR, ctx, (v) => v.a && v.b) }),
  },
  {
    id: 'bool.or',
    version: '1',
    verbose_name: { de: 'Oder', en: 'Or' },
    doc: { de: 'Wahr, wenn a oder b wahr ist (für jedes Element).', en: 'True when a or b is true (for every item).' },
    inputs: [bool('a'), bool('b')],
    outputs: [bool('result')],
    run: async (inputs, ctx) => ({ result: await elementWise(inputs, PAIR, ctx, (v) => v.a || v.b) }),
  },
  {
    id: 'bool.not',
    version: '1',
    verbose_name: { de: 'Nicht', en: 'Not' },
    doc: { de: 'Kehrt jeden Wahrheitswert um.', en: 'Inverts every boolean.' },
    inputs: [bool('value')],
    outputs: [bool('result')],
    run: async (inputs, ctx) => ({ result: await elementWise(inputs, { value: 'boolean' }, ctx, (v) => !v.value) }),
  },
];

export const boolFunctions: FunctionContribution = {
  registerFunctions: (registry) => BOOL_FUNCTIONS.forEach((f) => registry.add(f)),
};
