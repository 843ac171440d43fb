import assert from 'node:assert/strict';
import {
  ApiError,
  FunctionContribution,
  Kernel,
  NodeTranslationContribution,
  Registry,
  type FunctionDescriptor,
  type PortDescriptor,
  type TranslationBundle,
} from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import plugin from './basic-functions-node-module';
import { fakeRunContext } from '@werkbank/testing/node';

/**
 * `name:type`, `[]` for a list port, `?` when optional, `=…` its default (the parameter a node
 * shows when nothing is linked).
 */
const port = (p: PortDescriptor) =>
  `${p.name}:${p.content_type}${p.is_list ? '[]' : ''}${p.is_dict ? '{}' : ''}${p.is_optional ? '?' : ''}` +
  (p.default_value ? `=${JSON.stringify(p.default_value)}` : '');

/** The plugin alone in a fresh kernel: the functions and translations it contributes. */
function loadPlugin() {
  const kernel = new Kernel({ log: () => undefined });
  kernel.container.bind(DepotAccess).toConstantValue({} as DepotAccess);
  kernel.load([{ manifest: { id: 'basic-functions' }, module: plugin }]);
  const functions = new Registry<FunctionDescriptor>('function');
  kernel.collect(FunctionContribution, functions, (c, s) => c.registerFunctions(s));
  const bundles = new Registry<TranslationBundle>('translation');
  kernel.collect(NodeTranslationContribution, bundles, (c, s) => c.registerTranslations(s));
  return { kernel, functions, bundles };
}

describe('basic functions: ports and failure texts', () => {
  it('offers every function with the ports saved switchboards link to (version 1 of each)', () => {
    const { kernel, functions } = loadPlugin();
    const signatures = Object.fromEntries(
      functions.all().map((f) => [f.id, `${f.inputs.map(port).join(', ')} -> ${f.outputs.map(port).join(', ')}`]),
    );
    // Written out on purpose: a link or a parameter of a saved switchboard names a port of a
    // function version, so renaming, retyping or dropping one breaks switchboards that exist; such
    // a change needs a new version of the function, not an edit of this list.
    assert.deepEqual(signatures, {
      'string.concat': 'a:string, b:string, separator:string?={"value":""} -> result:string',
      'string.upper': 'value:string -> result:string',
      'string.lower': 'value:string -> result:string',
      'string.length': 'value:string -> result:int',
      'string.replace': 'value:string, search:string, replacement:string?={"value":""} -> result:string',
      'number.add': 'a:number, b:number -> result:number',
      'number.subtract': 'a:number, b:number -> result:number',
      'number.multiply': 'a:number, b:number -> result:number',
      'number.divide': 'a:number, b:number -> result:number',
      'number.round': 'value:number, digits:int?={"value":0} -> result:number',
      'number.sum': 'values:number -> result:number',
      'number.compare': 'a:number, b:number, operator:string?={"value":"=="} -> result:bool',
      'bool.and': 'a:bool, b:bool -> result:bool',
      'bool.or': 'a:bool, b:bool -> result:bool',
      'bool.not': 'value:bool -> result:bool',
      'frame.merge': 'frames:any[] -> frame:any',
      'frame.filter': 'frame:any, attribute:string, value:string -> frame:any',
      'frame.select': 'frame:any, fields:string -> frame:any',
      'frame.count': 'frame:any -> count:int',
      'depot.read': 'depot:depot, moment:int? -> datums:any',
      'depot.store': 'depot:depot, datums:any, mode:string?={"value":"replace"} -> moment:int',
      'test.fail': 'message:string? -> ',
      'test.wait': 'ms:int?={"value":0}, value:any? -> value:any',
      'test.superuser': 'value:any? -> value:any',
    });
    // The engine's test functions are never offered to authors.
    assert.deepEqual(
      functions
        .all()
        .filter((f) => f.hidden)
        .map((f) => f.id),
      ['test.fail', 'test.wait', 'test.superuser'],
    );
    kernel.dispose();
  });

  it('gives the reasons its functions fail with in German and English, with their details', async () => {
    const { kernel, functions, bundles } = loadPlugin();
    const [bundle] = bundles.all();
    assert.equal(bundle.namespace, 'basic-functions');
    /** The bundle's text for an error's key (`basic-functions:errors.code`) with its details filled in. */
    const text = (lang: 'de' | 'en', error: ApiError) => {
      const [namespace, path] = error.key.split(':');
      assert.equal(namespace, bundle.namespace);
      const template = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], bundle[lang]);
      assert.equal(typeof template, 'string', `${lang} ${error.key}`);
      return (template as string).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(error.params[name]));
    };
    const failing: [string, Record<string, unknown[]>, string, string][] = [
      [
        'number.add',
        { a: [1, 2], b: [1, 2, 3] },
        'The inputs have different numbers of items (a: 2, b: 3). Link frames of the same length, or a frame with one item to use it with every item.',
        'Die Eingänge haben unterschiedlich viele Elemente (a: 2, b: 3). Verbinden Sie gleich lange Frames oder einen Frame mit einem Element, um es mit jedem Element zu verwenden.',
      ],
      [
        'number.divide',
        { a: [1], b: [0] },
        'Division by zero: item b[0] is 0. Remove the zero divisors or replace them first.',
        'Division durch null: Element b[0] ist 0. Entfernen oder ersetzen Sie die Nullen im Divisor zuerst.',
      ],
      ['string.upper', { value: [1] }, 'Item value[0] is not a text.', 'Element value[0] ist kein Text.'],
      ['bool.not', { value: ['ja'] }, 'Item value[0] is not true or false.', 'Element value[0] ist weder wahr noch falsch.'],
      [
        'frame.select',
        { frame: [], fields: [''] },
        'The input fields needs a value. Link a frame or enter one in the node.',
        'Der Eingang fields braucht einen Wert. Verbinden Sie einen Frame oder geben Sie ihn im Knoten ein.',
      ],
      [
        'depot.store',
        { depot: [1, 2], datums: [] },
        'The input depot takes one item, but received 2.',
        'Der Eingang depot nimmt ein Element, hat aber 2 erhalten.',
      ],
    ];
    for (const [id, values, english, german] of failing) {
      const inputs = Object.fromEntries(Object.entries(values).map(([k, vs]) => [k, vs.map((value) => ({ value }))]));
      const error = await functions
        .get(id)!
        .run(inputs, fakeRunContext())
        .then(
          () => assert.fail(`${id} did not fail`),
          (e: unknown) => e as ApiError,
        );
      assert.ok(error instanceof ApiError, id);
      assert.equal(text('en', error), english, id);
      assert.equal(text('de', error), german, id);
    }
    kernel.dispose();
  });
});
