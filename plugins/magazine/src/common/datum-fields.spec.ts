import assert from 'node:assert/strict';
import { datumEditorValue, datumFieldsFromEditor } from '@werkbank/sdk';
import { changedFields, datumFields, duplicateBody } from './datum-fields';
import type { Datum } from './magazine-types';

const envelope = {
  id: 5,
  index: 5,
  resource_uri: '/api/v1/datum/5@12/',
  moment_id: 12,
  version: '31',
  depot: '/api/v1/depot/1/',
};

describe('datum fields (decision 0013)', () => {
  it('gives a one-field datum to its editor as the plain value and takes it back', () => {
    const fields = datumFields({ ...envelope, content_type: '/api/v1/type/color/', text_repr: '#ff0000', hex: '#ff0000' });
    assert.deepEqual(fields, { hex: '#ff0000' });
    assert.equal(datumEditorValue({ hex: '#000000' }, fields), '#ff0000');
    assert.deepEqual(datumFieldsFromEditor({ hex: '#000000' }, fields, '#00ff00'), { hex: '#00ff00' });
  });

  it('gives a several-field datum as an object and sends only what changed', () => {
    const file = {
      ...envelope,
      content_type: '/api/v1/type/file/',
      text_repr: 'a.csv',
      value: 'a.csv',
      size: 3,
      mime_type: 'text/csv',
      download_url: '/d/',
    };
    const fields = datumFields(file);
    const template = { value: '', size: 0, mime_type: 'application/octet-stream' };
    const renamed = datumFieldsFromEditor(template, fields, {
      ...(datumEditorValue(template, fields) as object),
      value: 'b.csv',
    });
    assert.deepEqual(changedFields(fields, renamed), { value: 'b.csv' });
  });

  it('duplicates a datum without envelope and server-made addresses', () => {
    const datum = {
      ...envelope,
      content_type: '/api/v1/type/string/',
      text_repr: 'x',
      value: 'x',
      download_url: '/d/',
      favored: false,
    } as unknown as Datum;
    assert.deepEqual(duplicateBody(datum), { value: 'x' });
  });
});
