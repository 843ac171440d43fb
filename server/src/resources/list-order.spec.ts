import assert from 'node:assert/strict';
import { ApiError, type ResourceDefinition } from '@werkbank/sdk/node';
import { countParam, escapeIdentifier, nextAddress, orderKeys } from './list-order';
import { pageParams } from './page-params';

const note: ResourceDefinition = {
  id: 'test.note',
  kind: 'note',
  table: 'test_note',
  fields: {
    name: { type: 'string', order: true },
    closed: { type: 'datetime', column: 'closed_at', nullable: true, order: true },
    body: { type: 'text' },
  },
};

function refusedParam(fn: () => unknown, key: string, params: Record<string, unknown>, field?: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, 'invalid_parameter');
    assert.equal(err.key, key);
    assert.deepEqual(err.params, params);
    assert.equal(err.field, field);
    return true;
  });
}

describe('list parameters: page, count, order, next address', () => {
  it('pages from offset 0 with 20 objects when offset and limit are absent or empty', () => {
    assert.deepEqual(pageParams({}), { offset: 0, limit: 20 });
    assert.deepEqual(pageParams({ offset: '', limit: '' }), { offset: 0, limit: 20 });
    assert.deepEqual(pageParams({ offset: '40', limit: '5000' }), { offset: 40, limit: 1000 });
    assert.deepEqual(pageParams({ limit: '0' }), { offset: 0, limit: 1 });
  });

  it('refuses an offset or limit that is not a whole number', () => {
    for (const raw of ['5x', 'x5', '-1', '1.5', ' 5']) {
      refusedParam(() => pageParams({ limit: raw }), 'errors.invalid_integer_param', { name: 'limit' });
      refusedParam(() => pageParams({ offset: raw }), 'errors.invalid_integer_param', { name: 'offset' });
    }
  });

  it('counts unless count=false, and refuses other values naming the parameter', () => {
    assert.equal(countParam({}), true);
    assert.equal(countParam({ count: '' }), true);
    assert.equal(countParam({ count: 'true' }), true);
    assert.equal(countParam({ count: 'false' }), false);
    refusedParam(() => countParam({ count: 'no' }), 'errors.invalid_boolean_param', { name: 'count' }, 'count');
  });

  it('gives the next page’s address as the same query without offset and the old cursor, behind the new one', () => {
    assert.equal(
      nextAddress('/api/v1/note/', { after: 'old.cursor', order_by: 'name', offset: '4', limit: '2', q: 'a b' }, 'new.cursor'),
      '/api/v1/note/?order_by=name&limit=2&q=a+b&after=new.cursor',
    );
  });

  it('orders by declared order fields, breaking ties by the id ascending unless the id is named', () => {
    const keys = orderKeys(note, '-closed,name', new Set(['closed_at']));
    assert.deepEqual(
      keys.map((k) => [k.name, k.desc]),
      [
        ['closed', true],
        ['name', false],
        ['id', false],
      ],
    );
    assert.deepEqual(
      orderKeys(note, 'name,-id', new Set()).map((k) => [k.name, k.desc]),
      [
        ['name', false],
        ['id', true],
      ],
    );
  });

  it('refuses ordering by a field that is not declared for ordering', () => {
    for (const order of ['body', 'nonsense', 'name,body', 'toString']) {
      assert.throws(
        () => orderKeys(note, order, new Set()),
        (err: unknown) => err instanceof ApiError && err.code === 'unknown_order' && err.field === 'order_by',
        order,
      );
    }
  });

  it('quotes identifiers so that no column name can end the quoting', () => {
    assert.equal(escapeIdentifier('closed_at'), '"closed_at"');
    assert.equal(escapeIdentifier('a"; DROP TABLE x; --'), '"a""; DROP TABLE x; --"');
  });
});
