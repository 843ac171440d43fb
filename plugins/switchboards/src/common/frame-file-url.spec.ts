import assert from 'node:assert/strict';
import { frameFileLink, parseFrameFileUrl } from './frame-file-url';

const HASH = 'ab'.repeat(32);

describe('frame file addresses', () => {
  it('reads the frame, the hash and the mode of an address the server writes', () => {
    assert.deepEqual(parseFrameFileUrl(`/api/v1/frame/12/file/${HASH}/download/`), { frameId: 12, hash: HASH, mode: 'download' });
    assert.deepEqual(parseFrameFileUrl(`/api/v1/frame/7/file/${HASH}/embed/`), { frameId: 7, hash: HASH, mode: 'embed' });
  });

  it('gives a link only for a frame file address, so a hand-made datum cannot point a link or an image elsewhere', () => {
    assert.equal(frameFileLink(`/api/v1/frame/12/file/${HASH}/download/`), `/api/v1/frame/12/file/${HASH}/download/`);
    for (const bad of [
      'javascript:alert(1)',
      'https://example.com/x.png',
      `//evil.example/api/v1/frame/12/file/${HASH}/download/`,
      `/api/v1/frame/12/file/${HASH}/download/?x=1`,
      `/api/v1/frame/12/file/${HASH.toUpperCase()}/download/`,
      `/api/v1/frame/12/file/${HASH}/delete/`,
      `/api/v1/frame/x/file/${HASH}/download/`,
      `/api/v1/datum/3@4/download/`,
      '',
      undefined,
      42,
    ]) {
      assert.equal(frameFileLink(bad), '', String(bad));
      assert.equal(parseFrameFileUrl(bad), undefined, String(bad));
    }
  });
});
