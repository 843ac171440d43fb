import assert from 'node:assert/strict';
import { defineFields, type WireObject } from './resource-fields';

const FIELDS = defineFields({
  name: { type: 'string', required: true },
  size: { type: 'int', nullable: true },
  kind: { type: 'string', enum: ['a', 'b'] as const },
  secret: { type: 'string', hidden: true },
  folder: { type: 'ref', refKind: 'folder', nullable: true },
  public: { type: 'bool', default: false },
});
type Probe = WireObject<typeof FIELDS>;

describe('defineFields and WireObject: the reply type derives from the one field declaration', () => {
  it('keeps the declaration as it was given (the resource layer reads it at run time)', () => {
    assert.equal(FIELDS.kind.enum[1], 'b');
    assert.equal(FIELDS.secret.hidden, true);
  });

  it('types every field as it is sent: refs as addresses, enums as their values, nullable ones with null, hidden ones not at all', () => {
    const ok: Probe = { id: 1, resource_uri: '/api/v1/probe/1/', name: 'x', size: null, kind: 'a', folder: null, public: true };
    // @ts-expect-error a hidden field is never part of a reply
    const hidden: Probe = { ...ok, secret: 's' };
    // @ts-expect-error an enum field holds only its values
    const badKind: Probe = { ...ok, kind: 'c' };
    // @ts-expect-error a field that is not nullable is never null
    const badName: Probe = { ...ok, name: null };
    assert.deepEqual([ok.kind, hidden.id, badKind.id, badName.id], ['a', 1, 1, 1]);
  });
});
