import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FunctionInputs } from '@werkbank/sdk/node';
import { GuardedFetcher } from '@werkbank/testing/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { SourcesFunctions } from './sources-functions';
import { downloadName } from './download-text';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { describeReasons } from '../failure-test-reasons';
import { sourcesFailure } from './download-text';
import { GeodataServices } from '../geodata-services';

const runContext = () => fakeRunContext();

/** file.download with a fetcher as the server configures it: loopback refused unless allowed. */
function functionsWith(allowedHosts: string[]): SourcesFunctions {
  const net = new GuardedFetcher({ allowPrivate: false, allowedHosts, maxBytes: 1e9 });
  return Object.assign(new SourcesFunctions(), { services: { net } as unknown as GeodataServices });
}

const urls = (...xs: unknown[]) => xs.map((value) => ({ value }));

describe('geodata sources: file.download', () => {
  let server: http.Server;
  let onEndless: () => void = () => undefined;
  let base: string;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/points.csv')
        res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end('\ufeffname;x\nStraße;1\n');
      else if (req.url === '/latin1.csv')
        res
          .writeHead(200, { 'content-type': 'text/csv; charset=iso-8859-1' })
          .end(Buffer.from([0x47, 0xf6, 0x72, 0x6c, 0x69, 0x74, 0x7a])); // Görlitz
      else if (req.url === '/plain') res.end('{"type":"FeatureCollection","features":[]}');
      else if (req.url === '/archive.zip')
        res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0]));
      else if (req.url === '/broken-utf8')
        res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.from([0x61, 0xff, 0xfe]));
      else if (req.url === '/named')
        res
          .writeHead(200, {
            'content-disposition': `attachment; filename="x.csv"; filename*=UTF-8''${encodeURIComponent('Straßen 2024.csv')}`,
          })
          .end('a;b\n');
      else if (req.url === '/endless') {
        // Sends a first chunk and never ends: the run is stopped while it downloads.
        res.writeHead(200, { 'content-type': 'text/plain' }).write('a'.repeat(1000), () => onEndless());
      } else if (req.url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const run = (fns: SourcesFunctions, inputs: FunctionInputs, ctx = runContext()) => fns.download.run(inputs, ctx);

  it('downloads each URL as a file with its bytes unchanged, named after the response or the address', async () => {
    const ctx = runContext();
    const out = await run(
      functionsWith(['127.0.0.1']),
      { url: urls(`${base}/points.csv`, `${base}/latin1.csv`, `${base}/archive.zip`, `${base}/named`) },
      ctx,
    );
    assert.deepEqual(
      out.file.map((i) => i.value),
      ['points.csv', 'latin1.csv', 'archive.zip', 'Straßen 2024.csv'],
    );
    const bytes = out.file.map((i) => ctx.files.get(String(i.stored_blob))!.bytes);
    assert.equal(bytes[0].toString('utf8'), '\ufeffname;x\nStraße;1\n');
    assert.deepEqual([...bytes[1]], [0x47, 0xf6, 0x72, 0x6c, 0x69, 0x74, 0x7a]);
    assert.deepEqual([...bytes[2]], [0x50, 0x4b, 3, 4, 0, 0, 0]);
    assert.deepEqual(
      out.file.map((i) => i.size),
      bytes.map((b) => b.length),
    );
    assert.deepEqual(ctx.progresses, [1 / 4, 2 / 4, 3 / 4, 1]);
    assert.match(ctx.logs[0], /downloaded \d+ bytes from http:\/\/127\.0\.0\.1:\d+\/points\.csv as points\.csv/);
  });

  it('refuses a file larger than the limit and stores nothing', async () => {
    const ctx = runContext();
    const net = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['127.0.0.1'], maxBytes: 10 });
    const fns = Object.assign(new SourcesFunctions(), { services: { net } as unknown as GeodataServices });
    await assert.rejects(run(fns, { url: urls(`${base}/points.csv`) }, ctx), { code: 'too_large' });
    assert.equal(ctx.files.size, 0);
  });

  it("refuses the server's own network unless the administrator allows it", async () => {
    await assert.rejects(run(functionsWith([]), { url: urls(`${base}/points.csv`) }), { code: 'url_refused' });
  });

  it('refuses a redirect to a link-local address (cloud metadata) from an allowed server', async () => {
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/to-metadata`) }), { code: 'url_refused' });
  });

  it('fails naming the item without an address, and on error statuses and non-http schemes', async () => {
    await assert.rejects(
      run(functionsWith(['127.0.0.1']), { url: urls(`${base}/plain`, '  ') }),
      (e: any) => e.code === 'url_missing' && e.params.item === 'url[1]',
    );
    await assert.rejects(
      run(functionsWith(['127.0.0.1']), { url: urls(42) }),
      (e: any) => e.code === 'url_missing' && e.params.item === 'url[0]',
    );
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/nothing`) }), { code: 'fetch_status' });
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls('file:///etc/passwd') }), { code: 'url_invalid' });
  });

  it('stops a download that is under way when the run is stopped', async () => {
    const ctx = runContext();
    onEndless = () => ctx.controller.abort(new Error('stopped while downloading'));
    try {
      await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/endless`) }, ctx), /stopped while downloading/);
    } finally {
      onEndless = () => undefined;
    }
    assert.equal(ctx.files.size, 0);
  });

  it('stops when the run is aborted', async () => {
    const ctx = runContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/plain`) }, ctx), /stopped/);
  });

  it('names files safely: no folders, no control characters, a fallback', () => {
    assert.equal(downloadName('attachment; filename="../../etc/passwd"', 'http://x/'), 'passwd');
    assert.equal(downloadName(undefined, 'http://x/data/Stra%C3%9Fe%0A.csv?x=1'), 'Straße_.csv');
    assert.equal(downloadName('inline', 'http://x/'), 'download');
    assert.equal(downloadName("attachment; filename*=UTF-8''..%2F.hidden", 'http://x/a'), 'hidden');
    assert.equal(downloadName("attachment; filename*=UTF-8''evil%E2%80%AEgpj.exe", 'http://x/a'), 'evil_gpj.exe');
    assert.equal(downloadName('attachment; filename=".env"', 'http://x/'), 'env');
  });
});

describeReasons('geodata-sources', sourcesFailure, en, de);
