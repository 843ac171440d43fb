import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GuardedFetcher, type FunctionInputs, type FunctionRunContext, type ServerServices } from '@werkbank/sdk/node';
import { SourcesFunctions } from './sources-functions';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

function runContext(): FunctionRunContext & { logs: string[]; progresses: number[]; controller: AbortController } {
  const controller = new AbortController();
  const ctx = {
    controller,
    signal: controller.signal,
    logs: [] as string[],
    progresses: [] as number[],
    progress: (f: number) => ctx.progresses.push(f),
    log: (m: string) => ctx.logs.push(m),
    user: {
      id: 7,
      username: 'tester',
      isSuperuser: false,
      isStaff: false,
      groupIds: [],
      permissions: new Set<string>(),
      language: 'en',
      displayName: 'Tester',
    },
    nodeRunId: 42,
    recordRead: () => {},
    recordWrite: () => {},
    lang: 'en',
  };
  return ctx;
}

/** file.download with a fetcher as the server configures it: loopback refused unless allowed. */
function functionsWith(allowedHosts: string[]): SourcesFunctions {
  const net = new GuardedFetcher({ allowPrivate: false, allowedHosts, maxBytes: 1e9 });
  return Object.assign(new SourcesFunctions(), { services: { net } as unknown as ServerServices });
}

const urls = (...xs: unknown[]) => xs.map((value) => ({ value }));

describe('geodata sources: file.download', () => {
  let server: http.Server;
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
      else if (req.url === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const run = (fns: SourcesFunctions, inputs: FunctionInputs, ctx = runContext()) => fns.download.run(inputs, ctx);

  it('downloads text, one string per URL, decoding the charset the server names (UTF-8 by default, BOM dropped)', async () => {
    const ctx = runContext();
    const out = await run(
      functionsWith(['127.0.0.1']),
      { url: urls(`${base}/points.csv`, `${base}/latin1.csv`, `${base}/plain`) },
      ctx,
    );
    assert.deepEqual(
      out.text.map((i) => i.value),
      ['name;x\nStraße;1\n', 'Görlitz', '{"type":"FeatureCollection","features":[]}'],
    );
    assert.deepEqual(ctx.progresses, [1 / 3, 2 / 3, 1]);
    assert.match(ctx.logs[0], /downloaded \d+ bytes from http:\/\/127\.0\.0\.1:\d+\/points\.csv/);
  });

  it("refuses the server's own network unless the administrator allows it", async () => {
    await assert.rejects(run(functionsWith([]), { url: urls(`${base}/points.csv`) }), { code: 'url_refused' });
  });

  it('refuses a redirect to a link-local address (cloud metadata) from an allowed server', async () => {
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/to-metadata`) }), { code: 'url_refused' });
  });

  it('refuses binary files and invalid text, naming the type', async () => {
    await assert.rejects(
      run(functionsWith(['127.0.0.1']), { url: urls(`${base}/archive.zip`) }),
      (e: any) => e.code === 'not_text' && e.params.mime_type === 'application/zip',
    );
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/broken-utf8`) }), { code: 'not_text' });
  });

  it('fails naming the item without an address, and on error statuses and non-http schemes', async () => {
    await assert.rejects(
      run(functionsWith(['127.0.0.1']), { url: urls(`${base}/plain`, '  ') }),
      (e: any) => e.code === 'url_missing' && e.params.item === 'url[1]',
    );
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/nothing`) }), { code: 'fetch_status' });
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls('file:///etc/passwd') }), { code: 'url_invalid' });
  });

  it('stops when the run is aborted', async () => {
    const ctx = runContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(run(functionsWith(['127.0.0.1']), { url: urls(`${base}/plain`) }, ctx), /stopped/);
  });

  it('has every reason in German and English', () => {
    assert.deepEqual(Object.keys(de.errors).sort(), Object.keys(en.errors).sort());
  });
});
