import assert from 'node:assert/strict';
import { PREVIEW_MAX_BYTES, previewKind } from './file-preview';

describe('magazine: file preview kinds (spec 001 §2.5)', () => {
  it('previews images, PDF and text types up to the limit', () => {
    assert.equal(previewKind('image/png', 10), 'image');
    assert.equal(previewKind('application/pdf', 10), 'pdf');
    for (const t of [
      'text/plain',
      'text/csv',
      'text/html',
      'text/css',
      'application/json',
      'application/geo+json',
      'application/gml+xml',
      'application/xml',
      'text/javascript',
    ]) {
      assert.equal(previewKind(t, 10), 'text', t);
    }
    assert.equal(previewKind('image/svg+xml', 10), 'text', 'SVG as its source, never rendered');
    assert.equal(previewKind('text/plain; charset=utf-8', 10), 'text');
  });

  it('offers no preview for other types, unknown sizes and files over the limit', () => {
    assert.equal(previewKind('application/octet-stream', 10), undefined);
    assert.equal(previewKind('application/zip', 10), undefined);
    assert.equal(previewKind('image/png', PREVIEW_MAX_BYTES), 'image');
    assert.equal(previewKind('image/png', PREVIEW_MAX_BYTES + 1), undefined);
    assert.equal(previewKind('image/png', undefined), undefined);
    assert.equal(previewKind(undefined, 10), undefined);
  });
});
