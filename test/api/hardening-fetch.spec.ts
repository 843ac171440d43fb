import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { ApiError } from '@werkbank/sdk/node';
import { GuardedFetcher } from '../../server/src/net/guarded-fetcher';
import { isBlockedAddress } from '../../server/src/net/address-policy';
import en from '../../server/src/i18n/en.json' with { type: 'json' };
import de from '../../server/src/i18n/de.json' with { type: 'json' };

/** A TCP server on a free loopback port that treats each connection with `onConnection`. */
async function tcp(onConnection: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The error a fetch rejects with. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('the fetch succeeded');
}

describe('hardening: what user-given URLs may reach (issue 14 item 31)', function () {
  it('blocks the IPv6 forms that embed IPv4 addresses: translated, compatible, NAT64, 6to4, Teredo', () => {
    for (const address of [
      '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
      '::ffff:0:a00:1', // … 10.0.0.1
      '::ffff:0:a9fe:a9fe', // … 169.254.169.254, the cloud metadata service
      '::ffff:7f00:1', // IPv4-mapped 127.0.0.1, hex form
      '::ffff:127.0.0.1',
      '::7f00:1', // IPv4-compatible
      '64:ff9b:1::a00:1', // local-use NAT64
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2001:0:a00:1::1', // Teredo
    ]) {
      assert.equal(isBlockedAddress(address), true, address);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34']) {
      assert.equal(isBlockedAddress(address), false, address);
    }
  });

  it('refuses a URL naming an IPv4-translated address', async () => {
    const fetcher = new GuardedFetcher({ allowPrivate: false, allowedHosts: [], maxBytes: 1000 });
    const e = await failure(fetcher.fetch('http://[::ffff:0:7f00:1]:8080/'));
    assert.equal(e.code, 'url_refused');
  });

  describe('with an allow-list, every port of an allowed host that gives no HTTP answer fails alike', () => {
    const servers: Server[] = [];
    let closedPort = 0;
    let silentPort = 0;
    let resetPort = 0;
    let bannerPort = 0;
    let httpPort = 0;

    before(async () => {
      const closed = await tcp(() => {});
      closedPort = closed.port;
      await new Promise<void>((resolve) => closed.server.close(() => resolve()));
      const silent = await tcp(() => {}); // accepts and never answers
      const reset = await tcp((socket) => socket.resetAndDestroy());
      const banner = await tcp((socket) => socket.end('SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n'));
      servers.push(silent.server, reset.server, banner.server);
      [silentPort, resetPort, bannerPort] = [silent.port, reset.port, banner.port];
      const web = createHttpServer((_req, res) => res.end('ok'));
      await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
      servers.push(web as unknown as Server);
      httpPort = (web.address() as AddressInfo).port;
    });
    after(() => {
      for (const s of servers) {
        (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        s.close();
      }
    });

    it('closed, silent, reset and non-HTTP ports give the same error, message and status', async () => {
      const fetcher = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['127.0.0.1'], maxBytes: 1000 });
      const errors = await Promise.all(
        [closedPort, silentPort, resetPort, bannerPort].map((port) =>
          failure(fetcher.fetch(`http://127.0.0.1:${port}/`, { timeoutMs: 500 })),
        ),
      );
      const shapes = errors.map((e) => ({
        status: e.status,
        code: e.code,
        key: e.key,
        params: { ...e.params, url: '…' },
      }));
      for (const shape of shapes) assert.deepEqual(shape, shapes[0]);
      const key = errors[0].key.replace(/^errors\./, '');
      for (const messages of [en.errors, de.errors] as Array<Record<string, string>>) {
        assert.ok(messages[key], key);
        assert.doesNotMatch(messages[key], /\{\{(detail|address|seconds)\}\}/);
      }
      // An HTTP answer is still reported as such.
      assert.equal((await (await fetcher.fetch(`http://127.0.0.1:${httpPort}/`)).buffer()).toString(), 'ok');
    });

    it('keeps the detail for public hosts', async () => {
      const fetcher = new GuardedFetcher({
        allowPrivate: false,
        allowedHosts: [],
        maxBytes: 1000,
        resolve: async () => {
          throw new Error('ENOTFOUND');
        },
      });
      const e = await failure(fetcher.fetch('http://nowhere.example/'));
      assert.equal(e.key, 'errors.fetch_failed');
      assert.ok(e.params.detail);
    });
  });
});
