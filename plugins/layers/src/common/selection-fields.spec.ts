import assert from 'node:assert/strict';
import {
  addAllAttributes,
  newAttributeFilter,
  newSelectionField,
  SELECTION_FIELD_TYPES,
  titleCase,
  withFilterType,
} from './selection-fields';

describe('layers: selection fields and attribute filters (spec 001 §2.2, §5.1)', () => {
  it('title-cases underscored names and upper-cases the word id', () => {
    assert.equal(titleCase('tree_id'), 'Tree ID');
    assert.equal(titleCase('id'), 'ID');
    assert.equal(titleCase('baum_art__name'), 'Baum Art Name');
    assert.equal(titleCase('idee'), 'Idee');
    assert.equal(titleCase('Höhe'), 'Höhe');
  });

  it('offers the 15 field types; a new field has an empty key and display name', () => {
    assert.equal(SELECTION_FIELD_TYPES.length, 15);
    assert.deepEqual(newSelectionField(), { key: '', displayName: '', type: 'text', visible: true });
  });

  it("'Add all attributes' skips existing keys and removes empty keys", () => {
    const out = addAllAttributes(
      [
        { key: 'name', displayName: 'Mein Name', type: 'title' },
        { key: '', displayName: 'leer', type: 'text' },
        { key: '  ', displayName: '', type: 'text' },
      ],
      [
        { name: 'name', type: 'string' },
        { name: 'tree_id', type: 'integer' },
        { name: 'height_m', type: 'number' },
      ],
    );
    assert.deepEqual(out, [
      { key: 'name', displayName: 'Mein Name', type: 'title' },
      { key: 'tree_id', displayName: 'Tree ID', type: 'text', visible: true },
      { key: 'height_m', displayName: 'Height M', type: 'text', visible: true },
    ]);
  });

  it('a new filter is allowed-values on the first attribute; changing its type resets the arguments', () => {
    const f = newAttributeFilter([
      { name: 'art', type: 'string' },
      { name: 'hoehe', type: 'number' },
    ]);
    assert.deepEqual(f.filter, { filter_type: 'allowed-values', filter_arguments: { allowed_values: [] } });
    assert.equal(f.attribute_key, 'art');
    const withValues = { ...f, filter: { ...f.filter, filter_arguments: { allowed_values: ['Eiche'] } } };
    assert.equal(withFilterType(withValues, 'allowed-values'), withValues);
    assert.deepEqual(withFilterType(withValues, 'min-max-value').filter, {
      filter_type: 'min-max-value',
      filter_arguments: { min_value: null, max_value: null },
    });
    assert.deepEqual(withFilterType(withValues, 'temporal-bounds').filter.filter_arguments, { time_min: null, time_max: null });
    assert.equal(newAttributeFilter([]).attribute_key, '');
  });
});
