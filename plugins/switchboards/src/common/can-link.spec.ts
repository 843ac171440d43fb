import assert from 'node:assert/strict';
import { TypeRegistry } from '@werkbank/sdk';
import { canLink, type LinkPort, type LinkSlot } from './can-link';

/** A registry as the types plugin fills it (a part of it), plus a derived type of a plugin. */
function registry(): TypeRegistry {
  const types = new TypeRegistry();
  types.add({ id: 'types.any', name: 'any' }, 'types');
  types.add({ id: 'types.object', name: 'object' }, 'types');
  types.add({ id: 'types.feature', name: 'feature', base: 'object' }, 'types');
  types.add({ id: 'cadastre.parcel', name: 'parcel', base: 'feature' }, 'cadastre');
  types.add({ id: 'types.string', name: 'string' }, 'types');
  types.add({ id: 'types.number', name: 'number' }, 'types');
  types.add({ id: 'types.int', name: 'int', base: 'number' }, 'types');
  types.add({ id: 'types.depot', name: 'depot' }, 'types');
  return types;
}

const input = (content_type: string, extra: Partial<LinkPort> = {}): LinkPort => ({
  name: 'in',
  content_type,
  is_input: true,
  ...extra,
});
const output = (content_type: string): LinkPort => ({ name: 'out', content_type, is_input: false });

type Row = [what: string, frame: string, port: LinkPort, slot: LinkSlot, expected: true | string];

/** spec 000 §5: the table both the canvas and the server follow. */
const TABLE: Row[] = [
  // frame -> node input
  ['same type into an input', 'string', input('string'), {}, true],
  ['derived type into its base (int -> number)', 'int', input('number'), {}, true],
  ['two steps down the base chain (parcel -> object)', 'parcel', input('object'), {}, true],
  ['base into a derived input (number -> int)', 'number', input('int'), {}, 'type_mismatch'],
  ['unrelated types (int -> string)', 'int', input('string'), {}, 'type_mismatch'],
  ['every type into an any input', 'parcel', input('any'), {}, true],
  ['an any frame into a typed input', 'any', input('string'), {}, 'type_mismatch'],
  ['a type address is a type name', '/api/v1/type/int/', input('/api/v1/type/number/'), {}, true],
  ['an unknown frame type into a typed input', 'gone', input('string'), {}, 'unknown_type'],
  ['an unknown frame type into an any input', 'gone', input('any'), {}, 'unknown_type'],
  ['a frame into an input of an unknown type', 'string', input('gone'), {}, 'unknown_type'],
  ['an unknown type into the same unknown type', 'gone', input('gone'), {}, 'unknown_type'],
  // node output -> frame
  ['an output into a frame of its type', 'number', output('number'), {}, true],
  ['a derived output into a frame of its base (int -> number)', 'number', output('int'), {}, true],
  ['an output into a frame of a derived type (number -> int)', 'int', output('number'), {}, 'type_mismatch'],
  ['a typed output into an any frame', 'any', output('int'), {}, true],
  ['an any output into a typed frame (depot.read)', 'parcel', output('any'), {}, true],
  ['an any output into an any frame', 'any', output('any'), {}, true],
  ['an any output into a frame of an unknown type', 'gone', output('any'), {}, 'unknown_type'],
  ['an output of an unknown type into a frame', 'string', output('gone'), {}, 'unknown_type'],
  ['an output with a list position', 'number', output('number'), { list_index: 0 }, 'plain_slot'],
  // list ports
  ['a list input without a position (appends)', 'int', input('number', { is_list: true }), {}, true],
  ['a list input at its first position (0)', 'int', input('number', { is_list: true }), { list_index: 0 }, true],
  ['a list input at position 3', 'int', input('number', { is_list: true }), { list_index: 3 }, true],
  ['a list input at a negative position', 'int', input('number', { is_list: true }), { list_index: -1 }, 'list_index'],
  ['a list input at a fractional position', 'int', input('number', { is_list: true }), { list_index: 1.5 }, 'list_index'],
  ['a list input with a key', 'int', input('number', { is_list: true }), { dict_key: 'a' }, 'list_key'],
  ['a list input of the wrong type', 'string', input('number', { is_list: true }), { list_index: 0 }, 'type_mismatch'],
  // dict ports
  ['a dict input with a key', 'string', input('string', { is_dict: true }), { dict_key: 'name' }, true],
  ['a dict input without a key', 'string', input('string', { is_dict: true }), {}, 'dict_key'],
  ['a dict input with a blank key', 'string', input('string', { is_dict: true }), { dict_key: '  ' }, 'dict_key'],
  ['a dict input with a position', 'string', input('string', { is_dict: true }), { list_index: 0, dict_key: 'a' }, 'dict_index'],
  ['a dict input of the wrong type', 'int', input('string', { is_dict: true }), { dict_key: 'a' }, 'type_mismatch'],
  // plain ports
  ['a plain input with a position', 'string', input('string'), { list_index: 0 }, 'plain_slot'],
  ['a plain input with a key', 'string', input('string'), { dict_key: 'a' }, 'plain_slot'],
];

describe('canLink (spec 000 §5: one link rule for the canvas and the server)', () => {
  const types = registry();
  for (const [what, frame, port, slot, expected] of TABLE) {
    it(`${expected === true ? 'accepts' : `refuses (${expected})`} ${what}`, () => {
      const verdict = canLink(types, frame, port, slot);
      assert.equal(verdict.ok ? true : verdict.reason, expected);
    });
  }

  it('names the flowing and the receiving type in the direction of the data', () => {
    const into = canLink(types, 'int', input('string'));
    assert.deepEqual(into, { ok: false, reason: 'type_mismatch', field: 'frame', from: 'int', to: 'string' });
    const out = canLink(types, 'int', output('number'));
    assert.deepEqual(out, { ok: false, reason: 'type_mismatch', field: 'frame', from: 'number', to: 'int' });
  });

  it('names the slot field a slot refusal is about', () => {
    const verdict = canLink(types, 'string', input('string', { is_dict: true }), {});
    assert.equal(!verdict.ok && verdict.field, 'dict_key');
    // A plain port given a slot: the field of the slot that was sent is the one marked wrong.
    const position = canLink(types, 'string', input('string'), { list_index: 0 });
    assert.equal(!position.ok && position.field, 'list_index');
    const key = canLink(types, 'string', input('string'), { dict_key: 'a' });
    assert.equal(!key.ok && key.field, 'dict_key');
  });

  it('lets generic ports link even where no plugin registers the any type', () => {
    const bare = new TypeRegistry();
    const registration = bare.add({ id: 'types.string', name: 'string' }, 'types');
    try {
      assert.deepEqual(canLink(bare, 'string', input('any')), { ok: true });
      assert.deepEqual(canLink(bare, 'string', output('any')), { ok: true });
      assert.equal(canLink(bare, 'gone', input('any')).ok, false);
    } finally {
      registration.dispose();
    }
  });
});
