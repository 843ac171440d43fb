import assert from 'node:assert/strict';
import { tableAdapterFor, UnhandledContentTypeError } from './table-adapter';
import { gridColumnWidths, shouldLoadMore } from './frame-table';

describe('frame table adapters (spec 001 §2.7)', () => {
  it('row: one column per key in order of first appearance; an edit changes that key only', () => {
    const adapter = tableAdapterFor(['row', 'dict', 'object']);
    const items = [{ value: { river: 'Elbe', km: 1094 } }, { value: { river: 'Oder', navigable: true } }];
    const columns = adapter.columns(items);
    assert.deepEqual(
      columns.map((c) => [c.id, c.rule]),
      [
        ['river', 'text'],
        ['km', 'number'],
        ['navigable', 'bool'],
      ],
    );
    assert.deepEqual(adapter.set(items[0], columns[1], 1095), { value: { river: 'Elbe', km: 1095 } });
    assert.equal(adapter.get(items[1], columns[1]), undefined);
  });

  it('feature: the geometry type (read-only) and the properties', () => {
    const adapter = tableAdapterFor(['feature', 'object']);
    const item = {
      feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [9, 53] }, properties: { name: 'Hamburg' } },
    };
    const [geometry, name] = adapter.columns([item]);
    assert.equal(adapter.get(item, geometry), 'Point');
    assert.equal(geometry.editable, false);
    assert.deepEqual(adapter.set(item, name, 'HH'), {
      feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [9, 53] }, properties: { name: 'HH' } },
    });
  });

  it('file: name (fills the rest), mime 150, size 85, download 85', () => {
    const columns = tableAdapterFor(['file']).columns([]);
    assert.deepEqual(
      columns.map((c) => c.id),
      ['value', 'mime_type', 'size', 'download_url'],
    );
    const [menu, name, mime, size, download] = gridColumnWidths(columns, 802);
    assert.deepEqual([mime, size, download], [150, 85, 85]);
    assert.equal(menu + name + mime + size + download, 800, 'the file name takes what is left');
  });

  it('simple values: one column typed by the base chain', () => {
    const rule = (chain: string[]) => tableAdapterFor(chain).columns([])[0];
    assert.deepEqual([rule(['color', 'string']).id, rule(['color', 'string']).rule], ['hex', 'colour']);
    assert.equal(rule(['int', 'number']).rule, 'int');
    assert.equal(rule(['float', 'number']).rule, 'number');
    assert.equal(rule(['bool']).rule, 'bool');
    assert.equal(rule(['datetime']).rule, 'datetime');
    assert.equal(rule(['label', 'string']).rule, 'text');
  });

  it('raises ‘Unhandled content type’ for types no adapter handles (spec 001 §8)', () => {
    assert.throws(
      () => tableAdapterFor(['bbox']),
      (e: Error) => e instanceof UnhandledContentTypeError && e.message === 'Unhandled content type',
    );
  });

  it('loads more rows once the last visible row reaches 90 % of the loaded ones (spec 001 §9)', () => {
    assert.equal(shouldLoadMore(88, 100), false);
    assert.equal(shouldLoadMore(89, 100), true);
    assert.equal(shouldLoadMore(3, 4), true);
  });
});
