/**
 * bench/extent: the Magazine's spatial reads (issue 15 items 1 and 3, decision 0070) against
 * PostGIS on the same PostgreSQL server in the same run.
 *
 * - Window query: the datums of a depot whose extent intersects a map window of about 1 % of
 *   the features (the statement `GET /api/v1/datum/by-depot/{id}/?bbox=` sends, through the same
 *   connection pool) against `ST_Intersects` on a GiST-indexed PostGIS table of the same features
 *   loaded by ogr2ogr. Aim: at most 2× PostGIS.
 * - Whole-depot read: `GET /api/v1/datum/by-depot/{id}/stream/` (GeoJSON, over HTTP, to a file)
 *   against `ogr2ogr -f GeoJSON` from the PostGIS table. Aim: at most 1.5× ogr2ogr.
 *
 * `npm run bench:extent`; BENCH_FEATURES (default 100,000) scales it; BENCH_EMBEDDED=1 adds the
 * embedded database's figures (against the same PostGIS numbers). See bench/README.md.
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { TestServer } from '@werkbank/testing/node';
import type { AuthUser } from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { snapshotPage } from '../plugins/magazine/src/node/datum-store';
import { windowBoxes } from '../plugins/magazine/src/common/datum-extent';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { PolygonGrid } from './polygon-grid';
import { alternating, banner, fmt, judge, median, PASSES, ratios, runBench, sized, SMOKE, spread, type Aim } from './bench-mode';

const FEATURES = sized('BENCH_FEATURES', 100_000, 2000);
if (!(FEATURES >= 100)) throw new Error('BENCH_FEATURES must be at least 100');
/** Windows per pass (after as many for warming up); each pass reads the whole depot once per target. */
const WINDOWS = SMOKE ? 5 : 20;
const AIM_WINDOW = 2;
const AIM_READ = 1.5;
const run = promisify(execFile);

/** The features (bench/polygon-grid.ts). */
const GRID = new PolygonGrid(FEATURES);
const { side: SIDE, dx: DX, dy: DY } = GRID;

/** Window k: a tenth of each axis (about 1 % of the features), its edges between the squares. */
function window(k: number): [number, number, number, number] {
  const col = Math.floor((((k * 37) % 90) / 100) * SIDE);
  const row = Math.floor((((k * 53) % 90) / 100) * SIDE);
  const w = 5 + (col + 0.8) * DX;
  const s = 47 + (row + 0.8) * DY;
  return [w, s, w + SIDE * 0.1 * DX, s + SIDE * 0.1 * DY];
}

function libpq(url: string): string {
  const u = new URL(url);
  return `PG:dbname=${decodeURIComponent(u.pathname.replace(/^\//, ''))} host=${u.hostname || '127.0.0.1'} port=${u.port || '5432'} user=${decodeURIComponent(u.username || 'postgres')}`;
}

/** Runs a command, resolving with its wall time in ms. */
function timed(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command}: ${err}`))));
  });
}

async function featureCount(file: string): Promise<number> {
  const { stdout } = await run('ogrinfo', ['-ro', '-so', '-al', file]);
  return Number(/Feature Count: (\d+)/.exec(stdout)?.[1]);
}

/** Per pass: medians over the pass's windows, and one whole read each. */
interface Result {
  database: string;
  windowMs: number[];
  peerWindowMs: number[];
  windowHttpMs: number[];
  readMs: number[];
  peerReadMs: number[];
  readBytes: number;
  /** Whether the PostGIS figures come from the same passes (PostgreSQL) or from the PostgreSQL run (embedded). */
  paired: boolean;
}

/** The PostGIS side, measured in the PostgreSQL run; the embedded run is compared with its medians. */
interface Peer {
  url: string;
  windowMs?: number[];
  readMs?: number[];
  counts?: number[];
}

/** Loads the features into a depot and, on PostgreSQL, into a PostGIS table by ogr2ogr. */
async function prepare(t: TestServer, geojson: string, peerUrl: string, loadPeer: boolean) {
  const [{ id }] = (await t.server.db.dataSource.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
    t.server.config.adminUsername,
  ])) as { id: number }[];
  const admin: AuthUser = (await t.server.accounts.loadAuthUser(id))!;
  const access = t.server.kernel.container.get<DepotAccess>(DepotAccess);
  const client = await t.admin();
  const depot = (await client.post('/api/v1/depot/', { name: 'bench extent', content_type: 'feature' })).body as { id: number };
  const started = performance.now();
  const { moment_id } = await access.writeStream(admin, depot.id, GRID.datumBatches(), {});
  console.log(`  depot ${depot.id}: ${FEATURES} features written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (loadPeer) {
    await t.server.db.dataSource.query('CREATE EXTENSION IF NOT EXISTS postgis');
    const ms = await timed('ogr2ogr', [
      '-f',
      'PostgreSQL',
      libpq(peerUrl),
      geojson,
      '--config',
      'PG_USE_COPY',
      'YES',
      '-nln',
      'bench_extent_peer',
      '-overwrite',
      '-lco',
      'SPATIAL_INDEX=GIST',
      '-lco',
      'FID=ogc_fid',
      '-lco',
      'GEOMETRY_NAME=wkb_geometry',
    ]);
    console.log(`  PostGIS table loaded by ogr2ogr in ${(ms / 1000).toFixed(1)} s (GiST index)`);
  }
  await t.server.db.dataSource.query('VACUUM ANALYZE magazine_datum_version');
  return { depotId: depot.id, momentId: moment_id, client };
}

async function benchDatabase(
  database: string,
  databaseUrl: string | undefined,
  geojson: string,
  dir: string,
  peer: Peer,
): Promise<Result> {
  console.log(`\n[${database}] starting Werkbank${databaseUrl ? ` on a fresh database at ${redact(databaseUrl)}` : ''}`);
  const t = await startServer(databaseUrl);
  try {
    const own = !!databaseUrl;
    const peerUrl = own ? t.server.db.url : peer.url;
    const { depotId, momentId, client } = await prepare(t, geojson, peerUrl, own);
    if (own) {
      peer.url = peerUrl;
      await t.server.db.dataSource.query('VACUUM ANALYZE bench_extent_peer');
    }
    const m = t.server.db.dataSource.manager;
    const counts: number[] = [];
    /** One window: ours (the statement the API sends), checked against PostGIS or the PostgreSQL run's counts. */
    const windowQuery = async (k: number) => {
      const w = window(k);
      const t0 = performance.now();
      const { rows } = await snapshotPage(m, depotId, momentId, { offset: 0, limit: 10_000, window: windowBoxes(w)! });
      const ms = performance.now() - t0;
      if (own) counts[k] = rows.length;
      else if (peer.counts && peer.counts[k] !== rows.length) {
        throw new Error(`window ${k}: embedded found ${rows.length} features, PostgreSQL ${peer.counts[k]}`);
      }
      return { ms, count: rows.length };
    };
    const postgisQuery = async (k: number, expected: number) => {
      const w = window(k);
      const t0 = performance.now();
      const peerRows = (await m.query(
        `SELECT ogc_fid, ST_AsGeoJSON(wkb_geometry) AS geometry, to_jsonb(p) - 'wkb_geometry' AS properties
         FROM bench_extent_peer p WHERE ST_Intersects(wkb_geometry, ST_MakeEnvelope($1, $2, $3, $4, 4326)) ORDER BY ogc_fid`,
        w,
      )) as unknown[];
      const ms = performance.now() - t0;
      if (peerRows.length !== expected)
        throw new Error(`window ${k}: Werkbank found ${expected} features, PostGIS ${peerRows.length}`);
      return ms;
    };
    const httpQuery = async (k: number, expected: number) => {
      const w = window(k);
      const t0 = performance.now();
      const res = await client.get(`/api/v1/datum/by-depot/${depotId}/?bbox=${w.join(',')}&limit=1000&moment=${momentId}`);
      const ms = performance.now() - t0;
      if (res.status !== 200 || res.body.meta.total_count !== expected) throw new Error(`HTTP window ${k}: ${res.status}`);
      return ms;
    };
    // Warm-up: every window once on each side.
    for (let k = 0; k < WINDOWS; k++) {
      const { count } = await windowQuery(k);
      if (own) await postgisQuery(k, count);
    }
    const readOurs = async (pass: number) => {
      const file = join(dir, `werkbank-${database}.geojson`);
      const t0 = performance.now();
      const res = await fetch(`${t.url}/api/v1/datum/by-depot/${depotId}/stream/?moment=${momentId}`, {
        headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(file));
      const ms = performance.now() - t0;
      bytes = (await stat(file)).size;
      if (pass < 2 && (await featureCount(file)) !== FEATURES) throw new Error('the stream did not hold every feature');
      return ms;
    };
    const readPeer = async (pass: number) => {
      const file = join(dir, `ogr2ogr-${pass}.geojson`);
      await rm(file, { force: true });
      const ms = await timed('ogr2ogr', ['-f', 'GeoJSON', file, libpq(peer.url), 'bench_extent_peer']);
      if (pass === 0 && (await featureCount(file)) !== FEATURES) throw new Error('ogr2ogr did not write every feature');
      await rm(file, { force: true });
      return ms;
    };
    let bytes = 0;
    // Per pass: the windows (ours and PostGIS taking turns, who goes first alternating), over HTTP,
    // then one whole read each; bench-mode alternates the targets from pass to pass.
    const WINDOWS_OURS = 'windows, werkbank';
    const WINDOWS_PEER = 'windows, PostGIS';
    const WINDOWS_HTTP = 'windows, over HTTP';
    const READ_OURS = 'read, werkbank';
    const READ_PEER = 'read, ogr2ogr';
    const targets = own
      ? [WINDOWS_OURS, WINDOWS_PEER, WINDOWS_HTTP, READ_OURS, READ_PEER]
      : [WINDOWS_OURS, WINDOWS_HTTP, READ_OURS];
    const results = await alternating(targets, async (target, pass) => {
      const times: number[] = [];
      if (target === READ_OURS) return readOurs(pass);
      if (target === READ_PEER) return readPeer(pass);
      for (let k = 0; k < WINDOWS; k++) {
        const expected = own ? counts[k] : peer.counts![k];
        if (target === WINDOWS_OURS) times.push((await windowQuery(k)).ms);
        else if (target === WINDOWS_PEER) times.push(await postgisQuery(k, expected));
        else times.push(await httpQuery(k, expected));
      }
      return median(times);
    });
    const got = (name: string) => results.get(name) ?? [];
    if (own) peer.counts = counts;
    if (own) peer.windowMs = got(WINDOWS_PEER);
    if (own) peer.readMs = got(READ_PEER);
    console.log(
      `  windows: ${Math.min(...counts.filter((c) => c !== undefined))}–${Math.max(...counts.filter((c) => c !== undefined))} ` +
        `features each; query ${fmt(spread(got(WINDOWS_OURS)))} ms` +
        (own ? `, PostGIS ${fmt(spread(got(WINDOWS_PEER)))} ms` : '') +
        `, over HTTP (first page of 1000) ${fmt(spread(got(WINDOWS_HTTP)))} ms (medians of each pass's windows)`,
    );
    console.log(
      `  whole-depot GeoJSON read: ${fmt(spread(got(READ_OURS).map((x) => x / 1000)), 2)} s (${(bytes / 1048576).toFixed(0)} MiB)` +
        (own ? `, ogr2ogr -f GeoJSON ${fmt(spread(got(READ_PEER).map((x) => x / 1000)), 2)} s` : ''),
    );
    return {
      database,
      windowMs: got(WINDOWS_OURS),
      peerWindowMs: peer.windowMs ?? [],
      windowHttpMs: got(WINDOWS_HTTP),
      readMs: got(READ_OURS),
      peerReadMs: peer.readMs ?? [],
      readBytes: bytes,
      paired: own,
    };
  } finally {
    await t.close();
  }
}

function report(results: Result[]): void {
  console.log(
    `\n${FEATURES} features, ${WINDOWS} windows of about 1 % each per pass, one whole read per target and pass; ` +
      `median (min–max) of ${PASSES} passes`,
  );
  const aims: Aim[] = [];
  for (const r of results) {
    // Per pass where both sides ran in the same passes (PostgreSQL); against PostGIS's median otherwise.
    const paired = r.paired;
    const per = (ours: number[], theirs: number[]) => spread(paired ? ratios(ours, theirs) : ours.map((x) => x / median(theirs)));
    console.log(
      `${r.database}: window query ${fmt(spread(r.windowMs))} ms, PostGIS ${fmt(spread(r.peerWindowMs))} ms, over HTTP ${fmt(spread(r.windowHttpMs))} ms; ` +
        `GeoJSON read ${fmt(spread(r.readMs.map((x) => x / 1000)), 2)} s, ogr2ogr ${fmt(spread(r.peerReadMs.map((x) => x / 1000)), 2)} s`,
    );
    aims.push(
      {
        what: `${r.database}: window query / PostGIS`,
        value: per(r.windowMs, r.peerWindowMs),
        aim: `<= ${AIM_WINDOW}`,
        met: (x) => x <= AIM_WINDOW,
        digits: 2,
      },
      {
        what: `${r.database}: GeoJSON read / ogr2ogr`,
        value: per(r.readMs, r.peerReadMs),
        aim: `<= ${AIM_READ}`,
        met: (x) => x <= AIM_READ,
        digits: 2,
      },
    );
  }
  judge(aims);
}

async function main(): Promise<void> {
  banner('bench/extent', `${os.cpus().length} CPUs`);
  const why = await unreachable(POSTGRES_URL);
  if (why) throw new Error(`PostgreSQL (with PostGIS) is needed at ${redact(POSTGRES_URL)}: ${why}`);
  const dir = await mkdtemp(join(process.env.BENCH_DIR ?? os.tmpdir(), 'werkbank-bench-extent-'));
  try {
    const geojson = join(dir, 'features.geojson');
    await GRID.writeGeoJson(geojson);
    const peer: Peer = { url: '' };
    const results = [await benchDatabase('postgresql', POSTGRES_URL, geojson, dir, peer)];
    if (process.env.BENCH_EMBEDDED === '1') {
      // The PostGIS numbers of the PostgreSQL run are the peer; its database is gone by now.
      results.push(await benchDatabase('embedded', undefined, geojson, dir, peer));
    }
    report(results);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

runBench('bench/extent', main);
