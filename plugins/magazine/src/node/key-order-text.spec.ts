import assert from 'node:assert/strict';
import { keyOrderOf } from '@werkbank/sdk/node';
import { KeyOrderMemo, keyOrderText } from './bulk-rows';

/** The bulk path's key order of one datum is exactly the SDK's KeyOrder of it (decision 0036, 0075). */
describe('magazine: keyOrderText', () => {
  it('equals JSON.stringify(keyOrderOf([data])) for flat, nested, deep and keyless data', () => {
    const cases: Record<string, unknown>[] = [
      {},
      { value: 'x' },
      { b: 1, a: 2 },
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [1, 2] },
        properties: { z: 1, 'a"b': { q: 1, p: [{ x: 1, y: 2 }] }, 1: 2 },
      },
      { a: { b: { c: { d: { e: 1, f: 2 }, g: 1 }, h: 1 }, i: 1 }, j: 1 },
      { a: { b: { c: { d: { e: { x: 1, y: 2 }, f: 2 } } } } },
    ];
    for (const data of cases) {
      const order = keyOrderOf([data]);
      assert.equal(keyOrderText(data), order ? JSON.stringify(order) : null, JSON.stringify(data));
    }
  });

  it('KeyOrderMemo gives keyOrderText for every value of a sequence, whatever shape follows which', () => {
    const feature = (properties: Record<string, unknown>, geometry: unknown = { type: 'Point', coordinates: [1, 2] }) => ({
      feature: { type: 'Feature', geometry, properties },
    });
    const sequence: Record<string, unknown>[] = [
      feature({ name: 'a', kind: 'b', value: 1 }),
      feature({ name: 'c', kind: 'd', value: 2 }),
      feature({ kind: 'd', name: 'c', value: 2 }),
      feature({ name: 'a', kind: 'b' }),
      feature({ name: 'a', kind: 'b', value: { x: 1, y: 2 } }),
      feature({ name: 'a', kind: 'b', value: { y: 2, x: 1 } }),
      feature({ name: 'a', kind: 'b', value: [1, 2] }),
      feature({ name: 'a', kind: 'b', value: 3 }),
      feature({ name: 'a', kind: 'b', value: {} }),
      feature({ name: 'a', kind: 'b', value: { only: 1 } }),
      feature({ name: 'a', kind: 'b', value: { only: { b: 1, a: 2 } } }),
      feature({ name: 'a', kind: 'b', value: 3 }, null),
      feature({ name: 'a', kind: 'b', value: 3 }, { coordinates: [1, 2], type: 'Point' }),
      { a: { b: { c: { d: { e: 1, f: 2 }, g: 1 }, h: 1 }, i: 1 }, j: 1 },
      { a: { b: { c: { d: { f: 1, e: 2 }, g: 1 }, h: 1 }, i: 1 }, j: 1 },
      { a: { b: { c: { d: { e: { x: 1, y: 2 }, f: 2 } } } } },
      { a: { b: { c: { d: { e: { y: 1, x: 2 }, f: 2 } } } } },
      {},
      { value: 'x' },
      { b: 1, a: 2 },
      { b: 1, a: 2 },
    ];
    const memo = new KeyOrderMemo();
    for (const data of sequence) {
      assert.equal(memo.text(data), keyOrderText(data), JSON.stringify(data));
      const text = keyOrderText(data);
      assert.equal(memo.copyValue(data), text === null ? '\\N' : text.replaceAll('\\', '\\\\'), JSON.stringify(data));
    }
  });
});
