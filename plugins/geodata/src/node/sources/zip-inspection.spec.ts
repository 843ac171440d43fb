import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { inspectZip, ZIP_LIMITS } from './zip-inspection';

interface TestEntry {
  name: string;
  data: Buffer;
  deflate?: boolean;
  /** An extra field, written into both the local and the central header. */
  extra?: Buffer;
  /** The entry's comment in the central directory. */
  comment?: string;
}

interface ZipOptions {
  /** Points an extra directory entry at an existing entry's bytes. */
  shareWith?: { index: number; name: string };
  /** The archive's comment, after the end record. */
  comment?: Buffer;
  /** The order of the central directory's records (default: the entries' order). */
  centralOrder?: number[];
}

/** A minimal ZIP writer for the specs: the hostile archives below cannot be made with GDAL or zip tools. */
function zipOf(entries: TestEntry[], opts: ZipOptions = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const records: Array<{ offset: number; method: number; compressed: number; size: number }> = [];
  let offset = 0;
  const centralOf = (e: TestEntry, name: string, r: (typeof records)[number]) => {
    const n = Buffer.from(name, 'utf8');
    const extra = e.extra ?? Buffer.alloc(0);
    const comment = Buffer.from(e.comment ?? '', 'utf8');
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x800, 8);
    c.writeUInt16LE(r.method, 10);
    c.writeUInt32LE(r.compressed, 20);
    c.writeUInt32LE(r.size, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt16LE(extra.length, 30);
    c.writeUInt16LE(comment.length, 32);
    c.writeUInt32LE(r.offset, 42);
    return Buffer.concat([c, n, extra, comment]);
  };
  for (const e of entries) {
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const name = Buffer.from(e.name, 'utf8');
    const extra = e.extra ?? Buffer.alloc(0);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x800, 6);
    h.writeUInt16LE(e.deflate ? 8 : 0, 8);
    h.writeUInt32LE(body.length, 18);
    h.writeUInt32LE(e.data.length, 22);
    h.writeUInt16LE(name.length, 26);
    h.writeUInt16LE(extra.length, 28);
    const record = { offset, method: e.deflate ? 8 : 0, compressed: body.length, size: e.data.length };
    records.push(record);
    locals.push(h, name, extra, body);
    offset += 30 + name.length + extra.length + body.length;
  }
  const order = opts.centralOrder ?? entries.map((_, i) => i);
  for (const i of order) central.push(centralOf(entries[i], entries[i].name, records[i]));
  if (opts.shareWith) central.push(centralOf(entries[opts.shareWith.index], opts.shareWith.name, records[opts.shareWith.index]));
  const dir = Buffer.concat(central);
  const comment = opts.comment ?? Buffer.alloc(0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...locals, dir, end, comment]);
}

/** Offsets of a record signature in an archive, first to last. */
const recordsAt = (zip: Buffer, signature: number): number[] => {
  const out: number[] = [];
  for (let p = 0; p + 4 <= zip.length; p++) if (zip.readUInt32LE(p) === signature) out.push(p);
  return out;
};
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const END = 0x06054b50;

/** A copy of `zip` with `write` applied to it. */
const patched = (zip: Buffer, write: (z: Buffer) => void): Buffer => {
  const copy = Buffer.from(zip);
  write(copy);
  return copy;
};

/** The failure inspectZip throws, as code and parameters. */
const failure = (zip: Buffer, limits = ZIP_LIMITS): [string, unknown] => {
  try {
    inspectZip(zip, limits);
  } catch (e) {
    return [(e as { code: string }).code, (e as { params: unknown }).params];
  }
  assert.fail('the archive was accepted');
};

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
    assert.deepEqual(failure(zip), ['zip_overlap', { name: 'b.csv' }]);
    // Entries listed in another order than their bytes lie are no overlap.
    const reversed = zipOf(
      ['a', 'b', 'c'].map((n) => ({ name: `${n}.csv`, data: Buffer.from(`${n};1\n`) })),
      { centralOrder: [2, 0, 1] },
    );
    assert.deepEqual(
      inspectZip(reversed).map((e) => e.name),
      ['c.csv', 'a.csv', 'b.csv'],
    );
  });

  it('refuses more entries or more declared bytes than allowed', () => {
    const many = zipOf(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') })));
    assert.deepEqual(failure(many, { ...ZIP_LIMITS, maxEntries: 4 }), ['zip_too_many_entries', { count: 5, limit: 4 }]);
    assert.deepEqual(failure(many, { ...ZIP_LIMITS, maxTotalSize: 4 }), ['zip_too_large', { size: 5, limit: 4 }]);
    // Exactly at the limits passes.
    assert.equal(inspectZip(many, { ...ZIP_LIMITS, maxEntries: 5, maxTotalSize: 5 }).length, 5);
  });

  it('refuses what is no ZIP or is cut off', () => {
    assert.throws(() => inspectZip(Buffer.from('name;x\nA;1\n')), code('zip_invalid'));
    const zip = zipOf([{ name: 'a.txt', data: Buffer.from('hello') }]);
    assert.throws(() => inspectZip(zip.subarray(0, zip.length - 5)), code('zip_invalid'));
    assert.throws(() => inspectZip(Buffer.concat([zip.subarray(0, 10), zip.subarray(40)])), code('zip_invalid'));
  });

  it('reads entries with extra fields and comments, an archive comment of any length, and an empty archive', () => {
    const entries = [
      { name: 'a.csv', data: Buffer.from('a;1\n'), extra: Buffer.from([0xfe, 0xca, 4, 0, 1, 2, 3, 4]), comment: 'erste Datei' },
      { name: 'b.csv', data: Buffer.from('b;2\n'), extra: Buffer.from([0xfe, 0xca, 2, 0, 9, 9]), comment: 'zweite' },
    ];
    for (const comment of [Buffer.alloc(0), Buffer.from('Lieferung 2026'), Buffer.alloc(0xffff, 0x41)]) {
      const listed = inspectZip(zipOf(entries, { comment }));
      assert.deepEqual(
        listed.map((e) => [e.name, e.size, e.compressedSize, e.encrypted]),
        [
          ['a.csv', 4, 4, false],
          ['b.csv', 4, 4, false],
        ],
        `comment of ${comment.length} bytes`,
      );
    }
    assert.deepEqual(inspectZip(zipOf([])), []);
    // A colon inside a name is no drive letter.
    assert.equal(inspectZip(zipOf([{ name: 'karten/blatt:1.tif', data: Buffer.from('x') }]))[0].name, 'karten/blatt:1.tif');
  });

  it('marks encrypted entries', () => {
    const zip = zipOf([
      { name: 'offen.csv', data: Buffer.from('x') },
      { name: 'geheim.csv', data: Buffer.from('y') },
    ]);
    const locked = patched(zip, (z) => {
      const at = recordsAt(z, CENTRAL)[1];
      z.writeUInt16LE(z.readUInt16LE(at + 8) | 1, at + 8);
    });
    assert.deepEqual(
      inspectZip(locked).map((e) => [e.name, e.encrypted]),
      [
        ['offen.csv', false],
        ['geheim.csv', true],
      ],
    );
  });

  it('refuses ZIP64 archives and entries, naming why', () => {
    const zip = zipOf([{ name: 'a.csv', data: Buffer.from('a;1\n') }]);
    const end = recordsAt(zip, END)[0];
    const entry = recordsAt(zip, CENTRAL)[0];
    const zip64 = ['zip_invalid', { detail: 'ZIP64' }];
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt16LE(0xffff, end + 10))), zip64);
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(0xffffffff, end + 12))), zip64);
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(0xffffffff, end + 16))), zip64);
    for (const field of [20, 24, 42])
      assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(0xffffffff, entry + field))), zip64);
  });

  it('refuses a directory, entry, local header or data that lies outside the archive, naming which', () => {
    const zip = zipOf([{ name: 'a.csv', data: Buffer.from('a;1\n') }]);
    const end = recordsAt(zip, END)[0];
    const entry = recordsAt(zip, CENTRAL)[0];
    const local = recordsAt(zip, LOCAL)[0];
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(z.readUInt32LE(end + 12) + 1, end + 12))), [
      'zip_invalid',
      { detail: 'central directory outside the file' },
    ]);
    // The end record counts two entries, the directory holds one.
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt16LE(2, end + 10))), ['zip_invalid', { detail: 'entry 1' }]);
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(0x12345678, entry))), ['zip_invalid', { detail: 'entry 0' }]);
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(0x12345678, local))), [
      'zip_invalid',
      { detail: 'local header of a.csv' },
    ]);
    // The entry's local header starts where the directory does.
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(z.readUInt32LE(end + 16), entry + 42))), [
      'zip_invalid',
      { detail: 'local header of a.csv' },
    ]);
    // A local name, extra field or compressed size one byte too long runs into the directory.
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt16LE(1, local + 28))), ['zip_invalid', { detail: 'data of a.csv' }]);
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt16LE(6, local + 26))), ['zip_invalid', { detail: 'data of a.csv' }]);
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(5, entry + 20))), ['zip_invalid', { detail: 'data of a.csv' }]);
    // An entry whose extra field runs past the end, and a local header far past it: refused, not a crash.
    assert.deepEqual(
      failure(
        patched(zip, (z) => {
          z.writeUInt16LE(2, end + 10);
          z.writeUInt16LE(0xffff, entry + 30);
        }),
      ),
      ['zip_invalid', { detail: 'entry 1' }],
    );
    assert.deepEqual(failure(patched(zip, (z) => z.writeUInt32LE(0xfffffff0, entry + 42))), [
      'zip_invalid',
      { detail: 'local header of a.csv' },
    ]);
    assert.deepEqual(failure(Buffer.from('PK')), ['zip_invalid', { detail: 'no end of central directory' }]);
  });

  it('judges expansion above 200 times, per entry over 1 MiB and for the whole archive', () => {
    const MIB = 1024 * 1024;
    /** One stored entry of `compressed` bytes whose declared size is `size` (declared sizes can lie). */
    const declared = (entries: Array<[string, number, number]>) => {
      const zip = zipOf(entries.map(([name, compressed]) => ({ name, data: Buffer.alloc(compressed, 0x61) })));
      return patched(zip, (z) => recordsAt(z, CENTRAL).forEach((at, i) => z.writeUInt32LE(entries[i][2], at + 24)));
    };
    assert.equal(inspectZip(declared([['genau.csv', 10_000, 2_000_000]])).length, 1, 'exactly 200 times passes');
    assert.deepEqual(failure(declared([['mehr.csv', 10_000, 2_000_001]])), ['zip_bomb', { name: 'mehr.csv', limit: 200 }]);
    // An entry of at most 1 MiB is not judged alone, whatever its ratio.
    assert.equal(inspectZip(declared([['klein.csv', 1, MIB]])).length, 1);
    assert.deepEqual(failure(declared([['leer.csv', 0, MIB + 1]])), ['zip_bomb', { name: 'leer.csv', limit: 200 }]);
    // The whole archive: two entries under 1 MiB each, together over it.
    assert.deepEqual(
      failure(
        declared([
          ['a.csv', 3000, 600_001],
          ['b.csv', 3000, 600_000],
        ]),
      ),
      ['zip_bomb', { name: '', limit: 200 }],
    );
    assert.equal(
      inspectZip(
        declared([
          ['a.csv', 3000, 600_000],
          ['b.csv', 3000, 600_000],
        ]),
      ).length,
      2,
      'exactly 200 times the whole passes',
    );
    // The whole archive of at most 1 MiB is not judged.
    assert.equal(
      inspectZip(
        declared([
          ['a.csv', 1, MIB / 2],
          ['b.csv', 1, MIB / 2],
        ]),
      ).length,
      2,
    );
    assert.deepEqual(
      failure(
        declared([
          ['a.csv', 0, 600_000],
          ['b.csv', 0, 600_000],
        ]),
      ),
      ['zip_bomb', { name: '', limit: 200 }],
    );
  });
});
