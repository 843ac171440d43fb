import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import pg from 'pg';
import { expectStatus, startServerProcess, startTestServer, TestClient, type TestServer } from '@werkbank/testing/node';
import { addDatum, adminWithDepotAccess } from '@werkbank/plugin-magazine/testing';
import { approvedDepot, PLUGINS, servedLayer, treesGeojson, type ServicesFixture } from './services-support';

/** The PostgreSQL server: DATABASE_URL in CI's second pass, otherwise the one `.ci/run` starts. */
const SERVER_URL = process.env.DATABASE_URL || process.env.CI_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** The approval message every process hears (the Magazine's, decision 0083). */
const APPROVED = 'werkbank_moment_approved';
/** The vector tile over the test trees (Cologne) at zoom 8. */
const TILE = '/tiles/WebMercatorQuad/8/85/132';

/** `promise`, or a rejection naming `what` after `ms`: a bound on a real event, never a sleep. */
async function within<T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`timed out waiting for ${what}`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The features of the tile's single layer. */
function featuresOf(bytes: Uint8Array): number {
  const tile = new VectorTile(new PbfReader(bytes));
  const [name] = Object.keys(tile.layers);
  return name ? tile.layers[name].length : 0;
}

/**
 * Two server processes on one PostgreSQL database (decision 0083, "Publishing"): a moment approved
 * through one is served by the other at once. The second process keeps tile publications for ten
 * minutes (SERVICES_TILE_MEMO_MS), so only the approval message, sent over LISTEN/NOTIFY, can make
 * its tiles change: nothing here waits for a time to pass.
 */
describe('Layer services across two server processes', function () {
  this.timeout(180_000);
  const name = `werkbank_two_${randomBytes(6).toString('hex')}`;
  const dbUrl = (() => {
    const u = new URL(SERVER_URL);
    u.pathname = `/${name}`;
    return u.toString();
  })();
  const dataDir = mkdtempSync(join(tmpdir(), 'werkbank-two-'));
  let t: TestServer | undefined;
  let f: ServicesFixture;
  let child: ChildProcess | undefined;
  let other: string;
  let listener: pg.Client | undefined;

  before(async () => {
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    t = await startTestServer({ plugins: PLUGINS, config: { databaseUrl: dbUrl } });
    f = { t, ...(await adminWithDepotAccess(t)) };
    const started = await startServerProcess(dataDir, {
      adminPassword: t.adminPassword,
      env: {
        DATABASE_URL: dbUrl,
        WERKBANK_PLUGINS: PLUGINS.join(','),
        DEV_LICENCE: t.server.config.developmentLicence ? '1' : '0',
        SERVICES_TILE_MEMO_MS: '600000',
      },
    });
    child = started.child;
    other = started.url;
    listener = new pg.Client({ connectionString: dbUrl });
    await listener.connect();
    await listener.query(`LISTEN ${APPROVED}`);
  });

  after(async () => {
    await listener?.end();
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await t?.close();
    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A tile of the layer from the other process: its ETag and how many features it holds. */
  async function otherTile(slug: string): Promise<{ etag: string | null; features: number }> {
    const res = await fetch(`${other}/services/ogc/${slug}${TILE}`);
    assert.equal(res.status, 200);
    return { etag: res.headers.get('etag'), features: featuresOf(new Uint8Array(await res.arrayBuffer())) };
  }

  it('serves a moment approved through the first process from the second at once: features, and tiles once the approval message arrives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'werkbank-two-data-'));
    try {
      const depot = await approvedDepot(f, treesGeojson(dir, 20));
      const layer = await servedLayer(f.admin, [depot]);
      const anonymous = new TestClient(other);
      const count = async () =>
        expectStatus<{ features: unknown[] }>(await anonymous.get(`/services/geojson/${layer.slug}/`), 200).features.length;

      assert.equal(await count(), 20);
      const before = await otherTile(layer.slug);
      assert.equal(before.features, 20);

      // A draft written through the first process is served by neither.
      const added = await addDatum(f.admin, depot, {
        feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [6.9, 50.9] }, properties: { id: 99, art: 'Linde' } },
      });
      assert.equal(await count(), 20);
      assert.deepEqual(await otherTile(layer.slug), before);

      const heard = new Promise<void>((resolve) =>
        listener!.on('notification', (n) => {
          if (n.channel === APPROVED) resolve();
        }),
      );
      expectStatus(await f.admin.post(`/api/v1/moment/${added.moment_id}/approve/`, {}), 200);
      // Features are read per request: the approval has committed, so the very next request sees it.
      assert.equal(await count(), 21);

      // Tiles: the second process forgets its publications when the message reaches it.
      await within(heard, 'the approval message');
      const after = await within(
        (async () => {
          for (;;) {
            const now = await otherTile(layer.slug);
            if (now.etag !== before.etag) return now;
          }
        })(),
        'the second process to serve the new moment’s tile',
      );
      assert.equal(after.features, 21);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
