import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { ApiError } from '@werkbank/sdk/node';
import { GuardedFetcher, type HostResolver } from './guarded-fetcher';
import { isBlockedAddress } from './address-policy';
import en from '../i18n/en.json' with { type: 'json' };
import de from '../i18n/de.json' with { type: 'json' };

/**
 * Rejects with an ApiError of this reason (code) whose message the user can read: a message of the
 * server's catalogue named after the reason, with a non-empty value for each of its placeholders.
 */
async function refused(promise: Promise<unknown>, code: string): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError ${code}, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    const name = e.key.replace(/^errors\./, '');
    const message = (en.errors as Record<string, string>)[name];
    assert.ok(e.key.startsWith('errors.fetch_') && message, `${code}: no message ${e.key}`);
    for (const [, placeholder] of message.matchAll(/\{\{(\w+)\}\}/g)) {
      const value = e.params[placeholder];
      assert.ok(value !== undefined && value !== '', `${code}: ${e.key} without {{${placeholder}}}`);
    }
    return e;
  }
  assert.fail(`expected ApiError ${code}, but it succeeded`);
}

describe('GuardedFetcher (SSRF guard for user-given URLs)', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  const seen: Array<{ path: string; host?: string; auth?: string }> = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push({ path: req.url ?? '', host: req.headers.host, auth: req.headers.authorization });
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/ok') res.end('hello');
      else if (url.pathname === '/redirect') res.writeHead(302, { location: url.searchParams.get('to') ?? '/ok' }).end();
      else if (url.pathname === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (url.pathname === '/missing') res.writeHead(404).end('no');
      else if (url.pathname === '/refused')
        res.writeHead(400, { 'content-type': 'text/xml' }).end(`<ows:ExceptionReport>${'x'.repeat(5000)}`);
      else if (url.pathname === '/big') {
        // chunked: no Content-Length, so the limit must count streamed bytes
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000, 97));
        res.end();
      } else if (url.pathname === '/declared') res.writeHead(200, { 'content-length': '100000' }).end();
      else if (url.pathname === '/exact') res.writeHead(200, { 'content-length': '1000' }).end(Buffer.alloc(1000, 98));
      else if (url.pathname === '/unusual-success') res.writeHead(299).end('fine');
      else if (url.pathname === '/cut') {
        // The connection breaks in the middle of the body.
        res.writeHead(200, { 'content-length': '1000' });
        res.write('x'.repeat(10), () => req.socket.destroy());
      } else if (url.pathname === '/slow')
        res.write('start'); // never ends
      else if (url.pathname === '/endless-error') {
        // An error answer whose body never ends, in small pieces.
        res.writeHead(503, { 'content-type': 'text/plain' });
        const piece = (): unknown => res.write('0123456789abcdef', (err) => !err && !res.destroyed && setImmediate(piece));
        piece();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const names: Record<string, string[]> = {
    'intranet.test': ['10.0.0.5'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'files.test': ['127.0.0.1'],
    'other.test': ['127.0.0.1'],
    'empty.test': [],
  };
  const lookups: string[] = [];
  const resolve: HostResolver = async (host) => {
    lookups.push(host);
    const addresses = names[host];
    if (!addresses) throw new Error('ENOTFOUND');
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const guarded = new GuardedFetcher({ allowPrivate: false, allowedHosts: [], maxBytes: 1e6, resolve });
  /** Allows the test server (loopback) explicitly, as an administrator would with FETCH_ALLOWED_HOSTS. */
  const allowingTestServer = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['127.0.0.1'], maxBytes: 1e6, resolve });

  describe('address policy', () => {
    it('blocks loopback, private, link-local, CGNAT, unspecified, multicast and their IPv4-mapped forms', () => {
      for (const a of [
        '127.0.0.1',
        '10.1.2.3',
        '172.16.0.1',
        '172.31.255.255',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '224.0.0.1',
        '::1',
        '::',
        'fc00::1',
        'fd12::1',
        'fe80::1',
        'ff02::1',
        '::ffff:127.0.0.1',
        '::ffff:a00:1',
        '::ffff:169.254.169.254',
      ])
        assert.equal(isBlockedAddress(a), true, a);
    });
    it('blocks what is not an IP address', () => {
      for (const a of ['example.org', '', '999.1.1.1']) assert.equal(isBlockedAddress(a), true, a);
    });
    it('passes public addresses', () => {
      for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2a00:1450:4001::1', '::ffff:8.8.8.8'])
        assert.equal(isBlockedAddress(a), false, a);
    });
  });

  describe('refuses', () => {
    it('schemes other than http and https', async () => {
      await refused(guarded.fetch('file:///etc/passwd'), 'url_invalid');
      await refused(guarded.fetch('ftp://example.org/x'), 'url_invalid');
      await refused(guarded.fetch('not a url'), 'url_invalid');
    });
    it('loopback, without connecting (the test server sees nothing)', async () => {
      const before = seen.length;
      const e = await refused(guarded.fetch(`${base}/ok`), 'url_refused');
      assert.equal(e.params.address, '127.0.0.1');
      await refused(guarded.fetch(`http://[::1]:${port}/ok`), 'url_refused');
      await refused(guarded.fetch(`http://[::ffff:127.0.0.1]:${port}/ok`), 'url_refused');
      await refused(guarded.fetch(`http://2130706433:${port}/ok`), 'url_refused'); // 127.0.0.1 as one number
      assert.equal(seen.length, before);
    });
    it('private and link-local addresses (cloud metadata)', async () => {
      await refused(guarded.fetch('http://10.0.0.1/'), 'url_refused');
      await refused(guarded.fetch('http://192.168.178.1/'), 'url_refused');
      await refused(guarded.fetch('http://169.254.169.254/latest/meta-data/'), 'url_refused');
      await refused(guarded.fetch('http://[fe80::1]/'), 'url_refused');
    });
    it('a host name that resolves to a private address, or to any private address among public ones', async () => {
      await refused(guarded.fetch('http://intranet.test/data.csv'), 'url_refused');
      await refused(guarded.fetch('http://mixed.test/data.csv'), 'url_refused');
    });
    it('localhost through the real resolver', async () => {
      await refused(
        new GuardedFetcher({ allowPrivate: false, allowedHosts: [], maxBytes: 1e6 }).fetch(`http://localhost:${port}/ok`),
        'url_refused',
      );
    });
    it('a redirect from an allowed server to a private address or to a host name resolving to one', async () => {
      await refused(allowingTestServer.fetch(`${base}/redirect?to=http://10.1.2.3/secret`), 'url_refused');
      await refused(allowingTestServer.fetch(`${base}/redirect?to=http://169.254.169.254/`), 'url_refused');
      await refused(allowingTestServer.fetch(`${base}/redirect?to=http://intranet.test/`), 'url_refused');
      await refused(allowingTestServer.fetch(`${base}/redirect?to=file:///etc/passwd`), 'url_invalid');
    });
    it('more redirects than allowed', async () => {
      const e = await refused(allowingTestServer.fetch(`${base}/loop`, { maxRedirects: 3 }), 'too_many_redirects');
      assert.equal(e.params.count, 3);
    });
    it('an error status, naming it', async () => {
      const e = await refused(allowingTestServer.fetch(`${base}/missing`), 'fetch_status');
      assert.equal(e.params.status, 404);
    });
    it('an error status with the start of its answer when asked for it, and without by default', async () => {
      const e = (await refused(allowingTestServer.fetch(`${base}/refused`, { errorBodyBytes: 100 }), 'fetch_status')) as {
        body?: Buffer;
      };
      assert.equal(e.body?.toString('utf8'), `<ows:ExceptionReport>${'x'.repeat(79)}`);
      const plain = (await refused(allowingTestServer.fetch(`${base}/refused`), 'fetch_status')) as { body?: Buffer };
      assert.equal(plain.body, undefined);
    });
    it('an error answer that never ends: its start, without waiting for the rest', async () => {
      // The fetch's own time limit is far beyond the test's: only stopping at errorBodyBytes ends it.
      const e = await refused(
        allowingTestServer.fetch(`${base}/endless-error`, { errorBodyBytes: 64, timeoutMs: 600_000 }),
        'fetch_status',
      );
      assert.equal(e.params.status, 503);
      assert.equal((e as { body?: Buffer }).body?.toString('utf8'), '0123456789abcdef'.repeat(4));
    });
    it('an unknown host, and a host name without addresses', async () => {
      await refused(guarded.fetch('http://nowhere.test/'), 'fetch_failed');
      await refused(guarded.fetch('http://empty.test/'), 'fetch_failed');
    });
    it('addresses with credentials, naming the address without them', async () => {
      for (const url of [
        'http://user:secret@example.org/data.csv',
        'http://user@example.org/data.csv',
        'http://:secret@example.org/',
      ]) {
        const e = await refused(guarded.fetch(url), 'url_invalid');
        assert.equal(e.params.url, 'http://example.org');
      }
    });
    it('https addresses like http ones (the same address rules)', async () => {
      const e = await refused(guarded.fetch('https://intranet.test/data.csv'), 'url_refused');
      assert.equal(e.params.address, '10.0.0.5');
    });
    it('an https address served without TLS: never read as plain HTTP', async () => {
      const e = await refused(allowingTestServer.fetch(`https://127.0.0.1:${port}/ok`), 'fetch_failed');
      assert.equal(e.key, 'errors.fetch_unreachable');
    });
    it('an allowed private address that accepts and never answers: the same message as a closed port, not a timeout', async () => {
      const accepted: net.Socket[] = [];
      const silent = net.createServer((socket) => accepted.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const silentPort = (silent.address() as AddressInfo).port;
      try {
        const e = await refused(
          allowingTestServer.fetch(`http://127.0.0.1:${silentPort}/data.csv`, { timeoutMs: 200 }),
          'fetch_failed',
        );
        assert.equal(e.key, 'errors.fetch_unreachable');
      } finally {
        for (const socket of accepted) socket.destroy();
        silent.close();
      }
    });
    it('an allowed private address that does not answer HTTP: one message whatever the cause (no port scan)', async () => {
      // A port nobody listens on (a server closed again) and a port that answers something else.
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const notHttp = net.createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
      await new Promise<void>((resolve) => notHttp.listen(0, '127.0.0.1', resolve));
      const notHttpPort = (notHttp.address() as AddressInfo).port;
      try {
        for (const p of [closedPort, notHttpPort]) {
          const e = await refused(allowingTestServer.fetch(`http://127.0.0.1:${p}/data.csv`), 'fetch_failed');
          assert.equal(e.key, 'errors.fetch_unreachable');
          assert.deepEqual(e.params, { url: `http://127.0.0.1:${p}/data.csv` });
        }
      } finally {
        notHttp.close();
      }
    });
  });

  describe('limits', () => {
    it('refuses a declared Content-Length over maxBytes before reading', async () => {
      const e = await refused(allowingTestServer.fetch(`${base}/declared`, { maxBytes: 1000 }), 'too_large');
      assert.equal(e.params.limit, 1000);
    });
    it('reads a body of exactly maxBytes', async () => {
      const res = await allowingTestServer.fetch(`${base}/exact`, { maxBytes: 1000 });
      assert.equal((await res.buffer()).length, 1000);
    });
    it('counts streamed bytes when no length is declared', async () => {
      const res = await allowingTestServer.fetch(`${base}/big`, { maxBytes: 2500 });
      await refused(res.buffer(), 'too_large');
      assert.equal((await (await allowingTestServer.fetch(`${base}/big`, { maxBytes: 10000 })).buffer()).length, 10000);
    });
    it('fails a download whose connection breaks in the middle of the body, naming the address', async () => {
      const res = await allowingTestServer.fetch(`${base}/cut`);
      const e = await refused(res.buffer(), 'fetch_failed');
      assert.equal(e.params.url, `${base}/cut`);
    });
    it('stops a download that takes longer than timeoutMs, the body included', async () => {
      const res = await allowingTestServer.fetch(`${base}/slow`, { timeoutMs: 300 });
      const e = await refused(res.buffer(), 'timeout');
      assert.equal(e.params.seconds, 0.3);
    });
    it('stops waiting for a resolver that does not answer', async () => {
      const hanging = new GuardedFetcher({
        allowPrivate: false,
        allowedHosts: [],
        maxBytes: 1e6,
        resolve: () => new Promise(() => {}),
      });
      await refused(hanging.fetch('http://slow-dns.test/', { timeoutMs: 200 }), 'timeout');
    });
    it('stops when the caller aborts', async () => {
      const controller = new AbortController();
      const res = await allowingTestServer.fetch(`${base}/slow`, { signal: controller.signal });
      controller.abort(new Error('run stopped'));
      await assert.rejects(res.buffer(), /run stopped/);
    });
  });

  describe('checkHost (connections of other protocols, e.g. MQTT)', () => {
    it('refuses loopback, private hosts and host names resolving to them, naming no credentials', async () => {
      const e = await refused(guarded.checkHost('mqtt://user:secret@127.0.0.1:1883'), 'url_refused');
      assert.equal(e.params.url, 'mqtt://127.0.0.1:1883');
      await refused(guarded.checkHost('mqtt:///no-host'), 'url_invalid');
      const long = await refused(guarded.checkHost(`not a url ${'x'.repeat(500)}`), 'url_invalid');
      assert.equal(String(long.params.url).length, 200);
      await refused(guarded.checkHost('mqtts://intranet.test:8883'), 'url_refused');
      await refused(guarded.checkHost('mqtt://unknown.test'), 'fetch_failed');
      await refused(guarded.checkHost('not a url'), 'url_invalid');
    });
    it('gives the one checked address of an allowed host', async () => {
      assert.deepEqual(await allowingTestServer.checkHost('mqtt://127.0.0.1:1883'), { address: '127.0.0.1', family: 4 });
      const allowingName = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['files.test'], maxBytes: 1e6, resolve });
      assert.deepEqual(await allowingName.checkHost('mqtt://files.test:1883'), { address: '127.0.0.1', family: 4 });
    });
  });

  describe('allowed fetches', () => {
    it('reads a loopback server the configuration allows', async () => {
      const res = await allowingTestServer.fetch(`${base}/ok`);
      assert.equal(res.status, 200);
      assert.equal((await res.buffer()).toString(), 'hello');
    });
    it('reads any 2xx answer', async () => {
      const res = await allowingTestServer.fetch(`${base}/unusual-success`);
      assert.equal(res.status, 299);
      assert.equal((await res.buffer()).toString(), 'fine');
    });
    it('allows private addresses by CIDR range, by IPv6 address and by host name, as configured (blanks around entries)', async () => {
      const byRange = new GuardedFetcher({ allowPrivate: false, allowedHosts: [' 127.0.0.0/8 '], maxBytes: 1e6, resolve });
      assert.equal((await (await byRange.fetch(`${base}/ok`)).buffer()).toString(), 'hello');
      const v6 = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['[::1]'], maxBytes: 1e6, resolve });
      assert.deepEqual(await v6.checkHost('mqtt://[::1]:1883'), { address: '::1', family: 6 });
      await refused(v6.checkHost('mqtt://127.0.0.1:1883'), 'url_refused');
      const v6Range = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['fd00::/8'], maxBytes: 1e6, resolve });
      assert.deepEqual(await v6Range.checkHost('mqtt://[fd12::1]:1883'), { address: 'fd12::1', family: 6 });
      await refused(v6Range.checkHost('mqtt://[fe80::1]:1883'), 'url_refused');
      const byName = new GuardedFetcher({ allowPrivate: false, allowedHosts: [' Files.Test '], maxBytes: 1e6, resolve });
      assert.deepEqual(await byName.checkHost('mqtt://files.test:1883'), { address: '127.0.0.1', family: 4 });
    });
    it('allows every address with FETCH_ALLOW_PRIVATE', async () => {
      const open = new GuardedFetcher({ allowPrivate: true, allowedHosts: [], maxBytes: 1e6, resolve });
      assert.equal((await (await open.fetch(`${base}/ok`)).buffer()).toString(), 'hello');
    });
    it('connects to the address it checked, resolving once, keeping the host name for Host', async () => {
      lookups.length = 0;
      const byName = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['files.test'], maxBytes: 1e6, resolve });
      const res = await byName.fetch(`http://files.test:${port}/ok`);
      assert.equal((await res.buffer()).toString(), 'hello');
      assert.deepEqual(lookups, ['files.test']);
      assert.equal(seen.at(-1)?.host, `files.test:${port}`);
    });
    it('follows redirects within the allowed set and sends headers to the first origin only', async () => {
      const byName = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['127.0.0.1'], maxBytes: 1e6, resolve });
      const res = await byName.fetch(`${base}/redirect?to=http://other.test:${port}/ok`, {
        headers: { authorization: 'Bearer s' },
      });
      assert.equal(res.url, `http://other.test:${port}/ok`);
      assert.equal((await res.buffer()).toString(), 'hello');
      assert.equal(seen.at(-2)?.auth, 'Bearer s');
      assert.equal(seen.at(-1)?.auth, undefined);
    });
  });

  it('has a German and an English message for every reason', () => {
    for (const code of [
      'url_invalid',
      'url_refused',
      'too_large',
      'timeout',
      'too_many_redirects',
      'fetch_status',
      'fetch_failed',
    ]) {
      const key = code.startsWith('fetch_') ? code : `fetch_${code}`;
      assert.ok((en.errors as Record<string, string>)[key], `en ${key}`);
      assert.ok((de.errors as Record<string, string>)[key], `de ${key}`);
    }
  });
});
