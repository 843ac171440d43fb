import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { BlobInfo } from '@werkbank/sdk/node';
import { FileBlobStore } from './file-blob-store';
import { sendBlob } from './send-blob';
import { listenTestApp } from './blob-test-support';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('sendBlob', () => {
  let dataDir: string;
  let store: FileBlobStore;
  let app: { url: string; close(): Promise<void> };
  const blobs: Record<string, BlobInfo & { filename: string }> = {};
  const DIGITS = '0123456789'.repeat(10); // 100 bytes

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'werkbank-send-spec-'));
    store = await FileBlobStore.open(dataDir);
    const add = async (key: string, data: string | Buffer, filename: string) => {
      blobs[key] = { ...(await store.put(Readable.from([Buffer.from(data)]), { maxBytes: 1e6, filename })), filename };
    };
    await add('digits', DIGITS, 'Straße (1).txt');
    await add('png', PNG, 'dot.png');
    await add('html', '<!DOCTYPE html><html><script>alert(1)</script></html>', 'page.html');
    await add('gml', '<gml:FeatureCollection xmlns:gml="http://www.opengis.net/gml"/>', 'parcels.gml');
    await add('empty', '', 'empty.txt');
    app = await listenTestApp((router) => {
      router.get('/blob/:key/:disposition', async (ctx) => {
        const b = blobs[ctx.params.key] ?? { hash: 'f'.repeat(64), size: 1, mime: 'text/plain', filename: 'gone.txt' };
        const disposition = ctx.params.disposition === 'inline' ? 'inline' : 'attachment';
        await sendBlob(ctx, store, b.hash, { size: b.size, mime: b.mime, filename: b.filename, disposition });
      });
    });
  });
  after(async () => {
    await app.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(`${app.url}${path}`, { headers, method });

  it('sends the whole blob with length, ETag, range support, a sandbox and an RFC 5987 file name', async () => {
    const res = await get('/blob/digits/attachment');
    assert.equal(res.status, 200);
    assert.equal(await res.text(), DIGITS);
    assert.equal(res.headers.get('content-length'), '100');
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.equal(res.headers.get('etag'), `"${blobs.digits.hash}"`);
    // Only for this user's browser, and asked again each time (a changed permission takes effect).
    assert.equal(res.headers.get('cache-control'), 'private, no-cache');
    assert.equal(res.headers.get('content-security-policy'), 'sandbox');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(
      res.headers.get('content-disposition'),
      `attachment; filename="Stra_e (1).txt"; filename*=UTF-8''Stra%C3%9Fe%20%281%29.txt`,
    );
  });

  it('answers HEAD with the headers only', async () => {
    const res = await get('/blob/digits/attachment', {}, 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), '100');
    assert.equal(await res.text(), '');
  });

  it('answers 304 when If-None-Match names the blob (also weakly or as *)', async () => {
    for (const tag of [`"${blobs.digits.hash}"`, `"other", W/"${blobs.digits.hash}"`, '*']) {
      const res = await get('/blob/digits/attachment', { 'If-None-Match': tag });
      assert.equal(res.status, 304, tag);
      assert.equal(await res.text(), '');
    }
    assert.equal((await get('/blob/digits/attachment', { 'If-None-Match': '"other"' })).status, 200);
  });

  it('sends byte ranges a-b, a- and -n as 206 with Content-Range, clamping the end', async () => {
    const cases: [string, string, string][] = [
      ['bytes=10-19', '10-19', DIGITS.slice(10, 20)],
      ['bytes=95-', '95-99', DIGITS.slice(95)],
      ['bytes=-3', '97-99', DIGITS.slice(97)],
      ['bytes=90-1000', '90-99', DIGITS.slice(90)],
      ['bytes=-500', '0-99', DIGITS],
      ['bytes=0-0, 5-9', '0-0', DIGITS[0]],
    ];
    for (const [range, served, body] of cases) {
      const res = await get('/blob/digits/attachment', { Range: range });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get('content-range'), `bytes ${served}/100`, range);
      assert.equal(res.headers.get('content-length'), String(body.length), range);
      assert.equal(await res.text(), body, range);
    }
  });

  it('answers 416 with Content-Range bytes */size for a range outside the blob', async () => {
    for (const range of ['bytes=100-', 'bytes=200-300', 'bytes=-0']) {
      const res = await get('/blob/digits/attachment', { Range: range });
      assert.equal(res.status, 416, range);
      assert.equal(res.headers.get('content-range'), 'bytes */100');
      assert.deepEqual(await res.json(), {
        status: 'error',
        code: 'range_not_satisfiable',
        reason: 'The requested byte range lies outside the file (100 bytes). Request a range within the file or the whole file.',
      });
    }
    assert.equal((await get('/blob/empty/attachment', { Range: 'bytes=0-' })).status, 416);
  });

  it('ignores a malformed Range and sends everything', async () => {
    for (const range of ['bytes=5-2', 'items=0-5', 'bytes=abc']) {
      const res = await get('/blob/digits/attachment', { Range: range });
      assert.equal(res.status, 200, range);
      assert.equal(await res.text(), DIGITS);
    }
  });

  it('honours a Range only while If-Range still names the blob', async () => {
    const etag = `"${blobs.digits.hash}"`;
    assert.equal((await get('/blob/digits/attachment', { Range: 'bytes=0-4', 'If-Range': etag })).status, 206);
    const changed = await get('/blob/digits/attachment', { Range: 'bytes=0-4', 'If-Range': '"older"' });
    assert.equal(changed.status, 200);
    assert.equal(await changed.text(), DIGITS);
    const dated = await get('/blob/digits/attachment', { Range: 'bytes=0-4', 'If-Range': 'Wed, 21 Oct 2015 07:28:00 GMT' });
    assert.equal(dated.status, 200);
  });

  it('shows safe types inline, XML dialects as text, and sends anything else as an octet-stream attachment', async () => {
    const png = await get('/blob/png/inline');
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.match(png.headers.get('content-disposition') ?? '', /^inline; /);
    assert.deepEqual(Buffer.from(await png.arrayBuffer()), PNG);
    const gml = await get('/blob/gml/inline');
    assert.equal(gml.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.match(gml.headers.get('content-disposition') ?? '', /^inline; /);
    const html = await get('/blob/html/inline');
    assert.equal(html.headers.get('content-type'), 'application/octet-stream');
    assert.match(html.headers.get('content-disposition') ?? '', /^attachment; filename="page.html"/);
    assert.equal(html.headers.get('content-security-policy'), 'sandbox');
  });

  it('sends an empty blob as an empty 200', async () => {
    const res = await get('/blob/empty/attachment');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), '0');
    assert.equal(await res.text(), '');
  });

  it('answers 404 blob_missing when the store has no such blob', async () => {
    const res = await get('/blob/missing/attachment');
    assert.equal(res.status, 404);
    const body = (await res.json()) as { code: string; reason: string };
    assert.equal(body.code, 'blob_missing');
    assert.match(body.reason, /missing from the file store/);
  });
});
