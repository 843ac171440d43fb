import assert from 'node:assert/strict';
import { inspectZip } from '../sources/zip-inspection';
import { buffer, text } from 'node:stream/consumers';
import { entryStream, openZip } from './zip-read';
import { fixture, rejectsWith } from './vector-test-helpers';

/** orte-shp.zip with the uncompressed size of `name` declared as `size` in its local and central headers. */
function withDeclaredSize(name: string, size: number): Buffer {
  const zip = Buffer.from(fixture('orte-shp.zip'));
  const entry = inspectZip(zip).find((e) => e.name === name)!;
  zip.writeUInt32LE(size, entry.offset + 22);
  for (
    let p = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    p >= 0;
    p = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), p + 4)
  ) {
    if (zip.toString('latin1', p + 46, p + 46 + zip.readUInt16LE(p + 28)) === name) zip.writeUInt32LE(size, p + 24);
  }
  return zip;
}

describe('openZip', () => {
  it('extracts entries in memory, equal to what zip packed', async () => {
    const archive = openZip(fixture('orte-shp.zip'));
    assert.deepEqual(
      archive.entries.map((e) => e.name),
      ['orte.shp', 'orte.shx', 'orte.dbf', 'orte.prj', 'orte.cpg'],
    );
    assert.equal((await archive.extract(archive.entries[4], 100)).toString(), 'CP1252');
    assert.equal((await archive.extract(archive.entries[0], 1000)).readInt32BE(0), 9994);
  });

  it('stops inflating at the declared size when an entry holds more than it declares, and at the caller’s limit', async () => {
    const lying = openZip(withDeclaredSize('orte.dbf', 100));
    const dbf = lying.entries.find((e) => e.name === 'orte.dbf')!;
    await rejectsWith(
      Promise.resolve().then(() => lying.extract(dbf, 1_000_000)),
      'zip_entry_too_large',
      { name: 'orte.dbf' },
    );
    const archive = openZip(fixture('orte-shp.zip'));
    await rejectsWith(
      Promise.resolve().then(() => archive.extract(archive.entries[2], 100)),
      'zip_entry_too_large',
      { name: 'orte.dbf' },
    );
  });

  describe('entryStream', () => {
    it('streams an entry as zip packed it, and reports the compressed bytes read', async () => {
      const zip = fixture('orte-shp.zip');
      const entries = inspectZip(zip);
      let read = 0;
      const dbf = entries.find((e) => e.name === 'orte.dbf')!;
      const streamed = await buffer(entryStream(zip, dbf, (n) => (read += n)));
      assert.deepEqual(streamed, await openZip(zip).extract(dbf, dbf.size));
      assert.equal(read, dbf.compressedSize);
      assert.equal(
        await text(
          entryStream(
            zip,
            entries.find((e) => e.name === 'orte.cpg')!,
          ),
        ),
        'CP1252',
      );
    });

    it('stops at the declared size when an entry holds more, and names a damaged entry', async () => {
      const lying = withDeclaredSize('orte.dbf', 100);
      await rejectsWith(
        text(
          entryStream(
            lying,
            inspectZip(lying).find((e) => e.name === 'orte.dbf')!,
          ),
        ),
        'zip_entry_too_large',
        {
          name: 'orte.dbf',
        },
      );
      const zip = Buffer.from(fixture('orte-shp.zip'));
      const dbf = inspectZip(zip).find((e) => e.name === 'orte.dbf')!;
      const start = dbf.offset + 30 + zip.readUInt16LE(dbf.offset + 26) + zip.readUInt16LE(dbf.offset + 28);
      zip.fill(0xff, start, start + 16);
      await rejectsWith(text(entryStream(zip, dbf)), 'zip_entry_broken', { name: 'orte.dbf' });
    });
  });
});
