import assert from 'node:assert/strict';
import { datumEditorValue, datumFieldsFromEditor } from './datum-editor-value';

const STA_TEMPLATE = { origin: '', sta_version: 'v1.1', thing_filter: '', datastream_filter: '', mqtt_uri: '', batch_size: 100 };

describe('datum editor values (decision 0013: decided by the type’s template)', () => {
  it('a one-field type edits the value of that field, also when the datum holds more', () => {
    assert.equal(datumEditorValue({ hex: '#000000' }, { hex: '#ff0000' }), '#ff0000');
    assert.deepEqual(datumFieldsFromEditor({ hex: '#000000' }, { hex: '#ff0000' }, '#00ff00'), { hex: '#00ff00' });
    assert.deepEqual(datumFieldsFromEditor({ value: '' }, { value: 'a', note: 'kept' }, 'b'), { value: 'b', note: 'kept' });
  });

  it('a datum holding only one field of a multi-field type is edited as an object, not as that field', () => {
    const fields = { origin: 'https://example.org/FROST-Server' };
    assert.deepEqual(datumEditorValue(STA_TEMPLATE, fields), fields);
    const changed = { ...fields, thing_filter: "name eq 'Pegel'" };
    assert.deepEqual(datumFieldsFromEditor(STA_TEMPLATE, fields, changed), changed);
  });

  it('a type without a template edits the fields as an object; a non-object leaves them as they were', () => {
    assert.deepEqual(datumEditorValue({}, { value: 'x' }), { value: 'x' });
    assert.deepEqual(datumFieldsFromEditor({}, { value: 'x' }, 'y'), { value: 'x' });
  });
});
