import assert from 'node:assert/strict';
import { inKeyOrder, keyOrderOf, keyOrderRestorer } from './key-order';

/** What PostgreSQL's jsonb does to an object: keys by length, then bytes (nested too). */
function jsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrder);
  if (!value || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, jsonbOrder((value as Record<string, unknown>)[k])]));
}

describe('key order: datums keep the order of their keys through jsonb (issue 14 item 5)', () => {
  const rows = [
    { value: { name: 'Zürich', einwohner: 421878, flaeche_km2: 87.88, a5: 'x' } },
    { value: { name: 'Bern', einwohner: 134794, flaeche_km2: 51.62, a5: 'y', neu: true } },
  ];
  const features = [
    {
      feature: {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [8.5, 47.4] },
        properties: { name: 'Zürich', x: 8.5, y: 47.4 },
      },
    },
  ];

  it('puts keys jsonb sorted back in the order the data came in, nested objects included', () => {
    for (const items of [rows, features] as unknown[][]) {
      const stored = items.map(jsonbOrder);
      assert.notDeepEqual(JSON.stringify(stored), JSON.stringify(items));
      assert.equal(JSON.stringify(inKeyOrder(stored, keyOrderOf(items))), JSON.stringify(items));
    }
  });

  it('keeps keys it does not know after the known ones, and items without an order unchanged', () => {
    const order = keyOrderOf([{ value: { b: 1, a: 2 } }]);
    assert.deepEqual(Object.keys(inKeyOrder([{ value: { a: 1, c: 3, b: 2 } }], order)[0].value), ['b', 'a', 'c']);
    assert.equal(keyOrderOf([{ value: 1 }]), null);
    const same = [{ a: 1 }];
    assert.equal(inKeyOrder(same, null), same);
  });

  it('compiles an order once for many items, rebuilding only the objects on its paths', () => {
    const order = keyOrderOf(features)!;
    const restore = keyOrderRestorer(order);
    const stored = features.map(jsonbOrder) as typeof features;
    assert.equal(JSON.stringify(stored.map(restore)), JSON.stringify(features));
    const restored = restore(stored[0]);
    assert.equal(restored.feature.geometry.coordinates, stored[0].feature.geometry.coordinates, 'arrays are passed through');
    // Unknown keys follow the known ones.
    const odd = restore({ feature: { zz: 1, type: 'Feature', properties: { y: 1, name: 'a' } } });
    assert.deepEqual(Object.keys(odd.feature), ['type', 'properties', 'zz']);
    assert.deepEqual(Object.keys(odd.feature.properties), ['name', 'y']);
  });
});
