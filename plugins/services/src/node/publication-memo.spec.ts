import assert from 'node:assert/strict';
import { PUBLICATION_MEMO_MS, publicationMemoMs } from './publication-memo';

describe('publicationMemoMs', () => {
  it('reads SERVICES_TILE_MEMO_MS in whole milliseconds; 0 turns the memo off', () => {
    assert.equal(publicationMemoMs({ SERVICES_TILE_MEMO_MS: '2000' }), 2000);
    assert.equal(publicationMemoMs({ SERVICES_TILE_MEMO_MS: ' 250.7 ' }), 250);
    assert.equal(publicationMemoMs({ SERVICES_TILE_MEMO_MS: '0' }), 0);
  });

  it('keeps the default for an unset, empty, negative or non-numeric setting', () => {
    assert.equal(PUBLICATION_MEMO_MS, 500);
    for (const raw of [undefined, '', '-1', 'soon', 'Infinity'])
      assert.equal(publicationMemoMs({ SERVICES_TILE_MEMO_MS: raw }), PUBLICATION_MEMO_MS, String(raw));
  });
});
