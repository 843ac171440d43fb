import assert from 'node:assert/strict';
import { addGroup, addLayer, freeEntryId, moveRow, removeRow, shiftRow, treeRows, updateRow } from './view-tree-edit';
import { emptyLayerTree, type ViewLayerGroup } from './view-tree';

const names = (root: ViewLayerGroup) =>
  treeRows(root, new Set()).map((r) => `${'-'.repeat(r.depth)}${r.layer?.layer ?? r.group?.name}`);

describe('views: editing the layer tree', () => {
  let root: ViewLayerGroup;
  beforeEach(() => {
    root = addLayer(addLayer(emptyLayerTree(), 'a'), 'b');
    root = addGroup(addGroup(root, 'G1'), 'G2');
    root = {
      ...root,
      layergroups: [{ ...root.layergroups[0], layers: [{ ...root.layers[0], id: 'l9', layer: 'c' }] }, root.layergroups[1]],
    };
  });

  it('lists layers, then groups, depth first; collapsed groups hide their rows', () => {
    assert.deepEqual(names(root), ['a', 'b', 'G1', '-c', 'G2']);
    assert.deepEqual(treeRows(root, new Set(['/group/0'])).length, 4);
  });

  it('moves rows up and down among their siblings, and not past either end', () => {
    assert.deepEqual(names(shiftRow(root, { group: [], kind: 'layer', index: 1 }, -1)), ['b', 'a', 'G1', '-c', 'G2']);
    assert.deepEqual(names(shiftRow(root, { group: [], kind: 'layer', index: 0 }, -1)), names(root));
    assert.deepEqual(names(shiftRow(root, { group: [], kind: 'group', index: 0 }, 1)), ['a', 'b', 'G2', 'G1', '-c']);
  });

  it('drags a layer before another, into a group, and a group before another but never into itself', () => {
    assert.deepEqual(names(moveRow(root, { group: [], kind: 'layer', index: 0 }, { group: [0], kind: 'layer', index: 0 })!), [
      'b',
      'G1',
      '-a',
      '-c',
      'G2',
    ]);
    assert.deepEqual(names(moveRow(root, { group: [], kind: 'layer', index: 0 }, { group: [], kind: 'group', index: 1 })!), [
      'b',
      'G1',
      '-c',
      'G2',
      '-a',
    ]);
    assert.deepEqual(
      names(moveRow(root, { group: [], kind: 'layer', index: 0 }, { group: [], kind: 'layer', index: 1 })!),
      names(root),
    );
    assert.deepEqual(names(moveRow(root, { group: [], kind: 'group', index: 1 }, { group: [], kind: 'group', index: 0 })!), [
      'a',
      'b',
      'G2',
      'G1',
      '-c',
    ]);
    const nested = moveRow(root, { group: [], kind: 'group', index: 1 }, { group: [], kind: 'group', index: 0 })!;
    assert.equal(moveRow(nested, { group: [], kind: 'group', index: 1 }, { group: [], kind: 'group', index: 1 }), undefined);
    assert.equal(moveRow(root, { group: [], kind: 'group', index: 0 }, { group: [], kind: 'layer', index: 0 }), undefined);
  });

  it('changes and removes rows, and names new entries with a free id', () => {
    const changed = updateRow(root, { group: [0], kind: 'layer', index: 0 }, { layer: { queryable: true } });
    assert.equal(changed.layergroups[0].layers[0].queryable, true);
    assert.equal(root.layergroups[0].layers[0].queryable, false);
    assert.deepEqual(names(removeRow(root, { group: [], kind: 'group', index: 0 })), ['a', 'b', 'G2']);
    assert.deepEqual(
      root.layers.map((l) => l.id),
      ['l1', 'l2'],
    );
    assert.equal(freeEntryId(root), 'l3');
  });
});
