import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { inspectZip, ZIP_LIMITS } from './zip-inspection';

interface TestEntry {
  name: string;
  data: Buffer;
  deflate?: boolean;
}

/** A minimal ZIP writer for the specs; `shareWith` points an extra directory entry at an existing entry's bytes. */
function zipOf(entries: TestEntry[], opts: { shareWith?: { index: number; name: string } } = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const records: Array<{ offset: number; method: number; compressed: number; size: number }> = [];
  let offset = 0;
  const centralOf = (name: string, r: (typeof records)[number]) => {
    const n = Buffer.from(name, 'utf8');
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt16LE(r.method, 10);
    c.writeUInt32LE(r.compressed, 20);
    c.writeUInt32LE(r.size, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(r.offset, 42);
    return Buffer.concat([c, n]);
  };
  for (const e of entries) {
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const name = Buffer.from(e.name, 'utf8');
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x800, 6);
    h.writeUInt16LE(e.deflate ? 8 : 0, 8);
    h.writeUInt32LE(body.length, 18);
    h.writeUInt32LE(e.data.length, 22);
    h.writeUInt16LE(name.length, 26);
    const record = { offset, method: e.deflate ? 8 : 0, compressed: body.length, size: e.data.length };
    records.push(record);
    central.push(centralOf(e.name, record));
    locals.push(h, name, body);
    offset += 30 + name.length + body.length;
  }
  if (opts.shareWith) central.push(centralOf(opts.shareWith.name, records[opts.shareWith.index]));
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const code = (c: string) => (e: any) => e.code === c;

describe('geodata sources: ZIP inspection before extracting', () => {
  it('lists the entries of an ordinary archive (a shapefile set)', () => {
    const zip = zipOf([
      { name: 'roads/', data: Buffer.alloc(0) },
      { name: 'roads/roads.shp', data: Buffer.from('shape bytes'.repeat(50)), deflate: true },
      { name: 'roads/Straßen.dbf', data: Buffer.from('dbase') },
    ]);
    const entries = inspectZip(zip);
    assert.deepEqual(
      entries.map((e) => [e.name, e.size, e.directory, e.method]),
      [
        ['roads/', 0, true, 0],
        ['roads/roads.shp', 550, false, 8],
        ['roads/Straßen.dbf', 5, false, 0],
      ],
    );
  });

  it('refuses zip slip: parent segments, absolute paths, drive letters and backslashes', () => {
    for (const name of ['../../etc/passwd', 'data/../../x', '/etc/cron.d/job', 'C:/Windows/x.dll', '..\\..\\evil.exe'])
      assert.throws(
        () => inspectZip(zipOf([{ name, data: Buffer.from('x') }])),
        (e: any) => e.code === 'zip_unsafe_path' && e.params.name === name,
        name,
      );
  });

  it('refuses a ZIP bomb: a highly compressed entry', () => {
    const zip = zipOf([{ name: 'zeros.csv', data: Buffer.alloc(20 * 1024 * 1024), deflate: true }]);
    assert.ok(zip.length < 100_000);
    assert.throws(
      () => inspectZip(zip),
      (e: any) => e.code === 'zip_bomb' && e.params.name === 'zeros.csv',
    );
  });

  it('refuses entries that share their bytes (the overlapping-file bomb)', () => {
    const zip = zipOf([{ name: 'a.csv', data: Buffer.from('1;2;3\n') }], { shareWith: { index: 0, name: 'b.csv' } });
    assert.throws(() => inspectZip(zip), code('zip_overlap'));
  });

  it('refuses more entries or more declared bytes than allowed', () => {
    const many = zipOf(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') })));
    assert.throws(() => inspectZip(many, { ...ZIP_LIMITS, maxEntries: 4 }), code('zip_too_many_entries'));
    assert.throws(() => inspectZip(many, { ...ZIP_LIMITS, maxTotalSize: 4 }), code('zip_too_large'));
  });

  it('refuses what is no ZIP or is cut off', () => {
    assert.throws(() => inspectZip(Buffer.from('name;x\nA;1\n')), code('zip_invalid'));
    const zip = zipOf([{ name: 'a.txt', data: Buffer.from('hello') }]);
    assert.throws(() => inspectZip(zip.subarray(0, zip.length - 5)), code('zip_invalid'));
    assert.throws(() => inspectZip(Buffer.concat([zip.subarray(0, 10), zip.subarray(40)])), code('zip_invalid'));
  });
});
