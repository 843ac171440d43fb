import assert from 'node:assert/strict';
import { keyOrderOf } from '@werkbank/sdk/node';
import { keyOrderText } from './datum-store';

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
});
