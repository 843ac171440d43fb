import assert from 'node:assert/strict';
import { imageTypeOf, viewImageAddress } from './view-image';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('views: the type of a preview image by its first bytes (decision 0092)', () => {
  it('knows PNG, JPEG, WebP and GIF by their signatures', () => {
    assert.equal(imageTypeOf(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])), 'image/png');
    assert.equal(imageTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF')), 'image/jpeg');
    assert.equal(imageTypeOf(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')), 'image/webp');
    assert.equal(imageTypeOf(bytes('GIF89a', [1, 0, 1, 0])), 'image/gif');
    assert.equal(imageTypeOf(bytes('GIF87a', [1, 0, 1, 0])), 'image/gif');
  });

  it('refuses SVG, other RIFF files, cut-off signatures and text, whatever they are called', () => {
    assert.equal(imageTypeOf(bytes('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>')), undefined);
    assert.equal(imageTypeOf(bytes('<?xml version="1.0"?><svg/>')), undefined);
    assert.equal(imageTypeOf(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')), undefined);
    assert.equal(imageTypeOf(bytes([0x89], 'PNG')), undefined);
    assert.equal(imageTypeOf(bytes('GIF88a')), undefined);
    assert.equal(imageTypeOf(bytes('%PDF-1.7')), undefined);
    assert.equal(imageTypeOf(new Uint8Array()), undefined);
  });

  it('serves an uploaded image under the view’s own address', () => {
    assert.equal(viewImageAddress(7), '/api/v1/view/7/image/');
  });
});
