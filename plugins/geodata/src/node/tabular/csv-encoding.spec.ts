import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { ApiError, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';
import { csvImport } from './csv-import';

/** Gemeinden with umlauts and decimal commas, as a spreadsheet program in Germany saves them. */
const UTF8 = 'name;einwohner;flaeche_km2\nZürich;421878;87,88\nMünchen;1512491;310,7\nKöln;1084831;405,01\n';
/** The same text in windows-1252, made by iconv (not by the code under test). */
const WINDOWS_1252 = execFileSync('iconv', ['-f', 'UTF-8', '-t', 'WINDOWS-1252'], { input: UTF8 });
const EXPECTED = [
  { name: 'Zürich', einwohner: 421878, flaeche_km2: 87.88 },
  { name: 'München', einwohner: 1512491, flaeche_km2: 310.7 },
  { name: 'Köln', einwohner: 1084831, flaeche_km2: 405.01 },
];

/** A FileAccess serving `bytes` as gemeinden.csv in chunks of `chunk` bytes (so sequences split between chunks). */
function files(bytes: Buffer, chunk = 64 * 1024): FileAccess {
  return {
    open: async (_user, file) => {
      if (file.download_url !== '/files/gemeinden.csv') throw ApiError.notFound();
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
      return { stream: Readable.from(parts), size: bytes.length, mime_type: 'text/csv', name: 'gemeinden.csv' };
    },
  };
}

const file: FrameItems = [{ value: 'gemeinden.csv', size: 1, mime_type: 'text/csv', download_url: '/files/gemeinden.csv' }];
const one = (value: unknown): FrameItems => [{ value }];

async function read(bytes: Buffer, params: FunctionInputs = {}, chunk?: number, lang = 'en') {
  const ctx = { ...fakeRunContext(), lang };
  const logs: string[] = [];
  ctx.log = (m) => logs.push(m);
  const out = await csvImport(files(bytes, chunk)).run({ file, decimal: one(','), ...params }, ctx);
  return { rows: out.rows.map((r) => r.value), logs };
}

describe('csv.import: a file that is not UTF-8', () => {
  it('reads a windows-1252 file with decimal commas as windows-1252 and says so in the log', async () => {
    assert.ok(!WINDOWS_1252.equals(Buffer.from(UTF8)), 'iconv made a different file');
    const { rows, logs } = await read(WINDOWS_1252);
    assert.deepEqual(rows, EXPECTED);
    assert.ok(
      logs.some((l) => l.includes('not valid UTF-8 (first at line 2)') && l.includes('windows-1252') && l.includes('encoding')),
      logs.join('\n'),
    );
  });

  it('writes the notice in the language of the user who runs it', async () => {
    const { logs } = await read(WINDOWS_1252, {}, undefined, 'de');
    assert.ok(
      logs.some((l) => l.includes('kein gültiges UTF-8 (erstmals in Zeile 2)') && l.includes('windows-1252')),
      logs.join('\n'),
    );
  });

  it('reads UTF-8 split anywhere between chunks without a notice, and windows-1252 read byte by byte alike', async () => {
    const utf8 = await read(Buffer.from(UTF8), {}, 1);
    assert.deepEqual(utf8.rows, EXPECTED);
    assert.ok(!utf8.logs.some((l) => l.includes('UTF-8')), utf8.logs.join('\n'));
    assert.deepEqual((await read(WINDOWS_1252, {}, 1)).rows, EXPECTED);
    // the chunk that switches to windows-1252 ends in a byte that would begin a UTF-8 sequence (the ü of München)
    const secondUmlaut = WINDOWS_1252.indexOf(0xfc, WINDOWS_1252.indexOf(0xfc) + 1);
    assert.deepEqual((await read(WINDOWS_1252, {}, secondUmlaut + 1)).rows, EXPECTED);
    // invalid bytes at the very end of the file (a truncated sequence) fall back too
    const last = await read(Buffer.concat([Buffer.from('name\nab'), Buffer.from([0xe4])]), { decimal: one('.') });
    assert.deepEqual(last.rows, [{ name: 'abä' }]);
  });

  it('keeps an explicit encoding setting as it is', async () => {
    const { rows, logs } = await read(WINDOWS_1252, { encoding: one('windows-1252') });
    assert.deepEqual(rows, EXPECTED);
    assert.ok(!logs.some((l) => l.includes('UTF-8')));
  });

  it('fails naming the line and the encoding setting when UTF-8 and windows-1252 are mixed', async () => {
    const mixed = Buffer.concat([
      Buffer.from(UTF8),
      execFileSync('iconv', ['-f', 'UTF-8', '-t', 'WINDOWS-1252'], { input: 'Genève;203856;15,93\n' }),
    ]);
    await assert.rejects(read(mixed), (e: ApiError) => {
      assert.equal(e.code, 'mixed_encoding');
      assert.equal(e.params.line, 5);
      assert.equal(e.params.source, 'gemeinden.csv');
      return true;
    });
  });
});
