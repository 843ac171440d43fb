import assert from 'node:assert/strict';
import { packedCount, packRows } from './bulk-rows';

/** COPY rows packed outside V8's heap (decision 0075, night amendment of 2026-11-28): each row found again by its end. */
describe('magazine: packRows', () => {
  const rowsOf = (packed: ReturnType<typeof packRows>) => {
    const out: string[] = [];
    let start = 0;
    for (const end of packed.ends) {
      out.push(packed.data.subarray(start, end).toString());
      start = end;
    }
    return out;
  };

  it('packs rows of single-byte text into one buffer, each row ending where its text ends', () => {
    const rows = ['\t1\t2\t{"value":"a"}\n', '\t1\t2\t{"value":"bb"}\n', ''];
    const packed = packRows(rows);
    assert.equal(packed.data.toString(), rows.join(''));
    assert.deepEqual([...packed.ends], [19, 39, 39]);
    assert.deepEqual(rowsOf(packed), rows);
  });

  it('measures rows with characters of several bytes in bytes: umlauts, characters beyond 16 bits', () => {
    const rows = ['Grüße\n', 'plain\n', '🌍 ß\n', 'x\n'];
    const packed = packRows(rows);
    assert.deepEqual([...packed.ends], [8, 14, 22, 24], 'ü and ß take two bytes, the globe four (two UTF-16 units)');
    assert.deepEqual(rowsOf(packed), rows);
    assert.equal(packedCount([packed, packRows(['a\n'])]), 5);
    assert.equal(packedCount([]), 0);
  });
});
