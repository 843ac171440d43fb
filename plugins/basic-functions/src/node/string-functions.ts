import type { FunctionContribution, FunctionDescriptor } from '@werkbank/sdk/node';
import { elementWise } from './frame-items';

const text = (name: string) => ({ name, content_type: 'string' });
const result = [text('result')];
const PAIR = { a: 'string', b: 'string' } as const;
const ONE = { value: 'string' } as const;

/** Text functions, element-wise over their inputs' items (a one-item input goes with every item). */
export const STRING_FUNCTIONS: FunctionDescriptor[] = [
  {
    id: 'string.concat',
    version: '1',
    verbose_name: { de: 'Texte verbinden', en: 'Concatenate texts' },
    doc: {
      de: 'Hängt b an a an, mit dem Trennzeichen dazwischen (Standard: keines).',
      en: 'Appends b to a, with the separator between them (default: none).',
    },
    inputs: [text('a'), text('b'), { ...text('separator'), is_optional: true, default_value: { value: '' } }],
    outputs: result,
    run: async (inputs, ctx) => ({
      result: await elementWise(inputs, { ...PAIR, separator: 'string' }, ctx, (v) => `${v.a}${v.separator}${v.b}`, {
        separator: '',
      }),
    }),
  },
  {
    id: 'string.upper',
    version: '1',
    verbose_name: { de: 'Großbuchstaben', en: 'Upper case' },
    doc: { de: 'Schreibt jeden Text in Großbuchstaben.', en: 'Writes every text in upper case.' },
    inputs: [text('value')],
    outputs: result,
    run: async (inputs, ctx) => ({ result: await elementWise(inputs, ONE, ctx, (v) => v.value.toUpperCase()) }),
  },
  {
    id: 'string.lower',
    version: '1',
    verbose_name: { de: 'Kleinbuchstaben', en: 'Lower case' },
    doc: { de: 'Schreibt jeden Text in Kleinbuchstaben.', en: 'Writes every text in lower case.' },
    inputs: [text('value')],
    outputs: result,
    run: async (inputs, ctx) => ({ result: await elementWise(inputs, ONE, ctx, (v) => v.value.toLowerCase()) }),
  },
  {
    id: 'string.length',
    version: '1',
    verbose_name: { de: 'Textlänge', en: 'Text length' },
    doc: {
      de: 'Die Anzahl der Zeichen jedes Texts (Unicode-Zeichen, nicht Bytes).',
      en: 'The number of characters of every text (Unicode characters, not bytes).',
    },
    inputs: [text('value')],
    outputs: [{ name: 'result', content_type: 'int' }],
    run: async (inputs, ctx) => ({ result: await elementWise(inputs, ONE, ctx, (v) => [...v.value].length) }),
  },
  {
    id: 'string.replace',
    version: '1',
    verbose_name: { de: 'Text ersetzen', en: 'Replace text' },
    doc: {
      de: 'Ersetzt jedes Vorkommen von search in value durch replacement (wörtlich, ohne Muster). Ein leeres search ändert nichts.',
      en: 'Replaces every occurrence of search in value with replacement (literally, no patterns). An empty search changes nothing.',
    },
    inputs: [text('value'), text('search'), { ...text('replacement'), is_optional: true, default_value: { value: '' } }],
    outputs: result,
    run: async (inputs, ctx) => ({
      result: await elementWise(
        inputs,
        { value: 'string', search: 'string', replacement: 'string' },
        ctx,
        (v) => (v.search ? v.value.split(v.search).join(v.replacement) : v.value),
        { replacement: '' },
      ),
    }),
  },
];

export const stringFunctions: FunctionContribution = {
  registerFunctions: (registry) => STRING_FUNCTIONS.forEach((f) => registry.add(f)),
};
