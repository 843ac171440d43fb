/**
 * bench/services: the layer services (issue 17, decision 0083) against MapServer 8 as it is
 * deployed (cgi-mapserver as FastCGI behind lighttpd, bench/mapserver-peer.ts) reading the same
 * polygons from PostGIS, in the same run, on the same PostgreSQL server.
 *
 * - WFS 2.0.0 GetFeature of the whole layer as GeoJSON and as GML 3.2, Werkbank against MapServer,
 *   whole replies read by the client, features counted. Aim: at most 1.0× MapServer's time each.
 *   The GeoJSON service (`GET /services/geojson/{name}/`) is printed beside, for reference.
 * - WMS 1.3.0 GetMap 1024×768 PNG at three scales (the whole layer, about 4 % and about 0.25 % of
 *   it) under 10 connections: throughput at least 1.0× MapServer's, p95 printed.
 * - Approval: after `POST /api/v1/moment/{id}/approve/` answers, how long until the services serve
 *   the new moment (a new ETag). Aim: under 1 s.
 *
 * `npm run bench:services`; BENCH_FEATURES (default 100,000) scales it, BENCH_ONLY=wms runs only
 * the WMS part. See bench/README.md.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestServer } from '@werkbank/testing/node';
import type { AuthUser } from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { alternating, banner, fmt, judge, PASSES, ratios, runBench, sized, spread, type Aim } from './bench-mode';
import { mapfile, POLYGON_STYLE, startMapServer, type MapServerPeer } from './mapserver-peer';
import { LoadRunner } from './load-runner';
import { measure } from './bench-report';
import { PolygonGrid } from './polygon-grid';

const FEATURES = sized('BENCH_FEATURES', 100_000, 2000);
if (!(FEATURES >= 100)) throw new Error('BENCH_FEATURES must be at least 100');
/** The benched polygons (bench/polygon-grid.ts). */
const GRID = new PolygonGrid(FEATURES);
const AIM_READ = 1.0;
const AIM_WMS = 1.0;
const CONNECTIONS = 10;
/** BENCH_SKIP_WMS=1 leaves the WMS scenario out (the WFS reads and the approval figure only). */
const SKIP_WMS = process.env.BENCH_SKIP_WMS === '1';
/** Seconds of load per WMS target and scale (after a warm-up of a fifth of that). */
const LOAD_SECONDS = sized('BENCH_SECONDS', 15, 2);
/**
 * Whole-layer maps per connection (count mode): a map of every polygon takes seconds, and with 10
 * connections one waits behind nine others, longer than a time window holds. So each server gets
 * this many maps per connection, all measured; maps per second = maps / wall time of the job.
 */
const WHOLE_MAPS_PER_CONNECTION = sized('BENCH_WMS_MAPS', 3, 2);
/** BENCH_ONLY=wms: only the WMS part (no WFS reads, no approval). */
const ONLY = process.env.BENCH_ONLY ?? '';
if (ONLY && ONLY !== 'wms') throw new Error(`BENCH_ONLY must be wms (or unset), not ${ONLY}`);
/**
 * The GetMap windows [west, south, east, north]: the whole grid, a fifth and a twentieth of each
 * axis; and whether the scale is measured in count mode (a fixed number of maps per connection).
 */
const SCALES: Array<[string, [number, number, number, number], boolean]> = [
  ['whole layer', [5, 47, 15, 55], true],
  ['4 %', [9, 50, 11, 51.6], false],
  ['0.25 %', [9.5, 50.5, 10, 50.9], false],
];
const AIM_SWITCH_MS = 1000;
const run = promisify(execFile);
const LAYER = 'flaechen';
const TABLE = 'bench_services_peer';
/** Worker threads of Werkbank's pool (BENCH_WORKER_THREADS): one per core, as MapServer gets one FastCGI process per core. */
const WORKER_THREADS = sized('BENCH_WORKER_THREADS', os.cpus().length, os.cpus().length);

function libpq(url: string): string {
  const u = new URL(url);
  return `PG:dbname=${decodeURIComponent(u.pathname.replace(/^\//, ''))} host=${u.hostname || '127.0.0.1'} port=${u.port || '5432'} user=${decodeURIComponent(u.username || 'postgres')}`;
}

/**
 * Reads a whole reply, returning its time in ms, its bytes and its feature count: GeoJSON features,
 * or GML members (`<wfs:member>`, one per feature in WFS 2.0 as both servers write it).
 */
async function readAll(url: string, gml = false): Promise<{ ms: number; bytes: number; features: number }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const features = gml
    ? (text.match(/<wfs:member>/g) ?? []).length
    : (JSON.parse(text) as { features: unknown[] }).features.length;
  return { ms, bytes: Buffer.byteLength(text), features };
}

interface Setup {
  t: TestServer;
  peer: MapServerPeer;
  depotId: number;
  layerSlug: string;
  admin: Awaited<ReturnType<TestServer['admin']>>;
}

/** Werkbank on a fresh database with the polygons in an approved depot and a public layer; PostGIS and MapServer beside it. */
async function setUp(dir: string, geojson: string): Promise<Setup> {
  const t = await startServer(POSTGRES_URL, { workerThreads: WORKER_THREADS });
  const [{ id }] = (await t.server.db.dataSource.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
    t.server.config.adminUsername,
  ])) as { id: number }[];
  const adminUser: AuthUser = (await t.server.accounts.loadAuthUser(id))!;
  const access = t.server.kernel.container.get<DepotAccess>(DepotAccess);
  const admin = await t.admin();
  const depot = (await admin.post('/api/v1/depot/', { name: 'bench services', content_type: 'feature' })).body as { id: number };
  const started = performance.now();
  const { moment_id } = await access.writeStream(adminUser, depot.id, GRID.datumBatches(), {});
  const approved = await admin.post(`/api/v1/moment/${moment_id}/approve/`, {});
  if (approved.status !== 200) throw new Error(`approve answered ${approved.status}`);
  console.log(
    `  depot ${depot.id}: ${FEATURES} features written and approved in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const style = {
    rules: [
      {
        name: 'Flächen',
        symbol: {
          symbol_type: 'style',
          fill: POLYGON_STYLE.fill,
          fill_opacity: POLYGON_STYLE.fillOpacity,
          stroke: POLYGON_STYLE.stroke,
          stroke_width: POLYGON_STYLE.strokeWidth,
        },
      },
    ],
  };
  const layer = await admin.post('/api/v1/layer/', {
    name: 'Flächen',
    slug: LAYER,
    public: true,
    layerpiles: [`/api/v1/depot/${depot.id}/`],
    style,
  });
  if (layer.status !== 201) throw new Error(`layer answered ${layer.status}: ${JSON.stringify(layer.body)}`);
  // The peer's data: the same file, loaded by ogr2ogr into PostGIS in Werkbank's database.
  const url = t.server.db.url;
  await t.server.db.dataSource.query('CREATE EXTENSION IF NOT EXISTS postgis');
  await run('ogr2ogr', [
    '-f',
    'PostgreSQL',
    libpq(url),
    geojson,
    '--config',
    'PG_USE_COPY',
    'YES',
    '-nln',
    TABLE,
    '-overwrite',
    '-lco',
    'FID=ogc_fid',
    '-lco',
    'GEOMETRY_NAME=wkb_geometry',
    '-unsetFid',
  ]);
  await t.server.db.dataSource.query(`VACUUM ANALYZE ${TABLE}`);
  const map = join(dir, 'bench.map');
  await writeFile(map, mapfile(dir, url, TABLE, LAYER));
  const peer = await startMapServer(dir, map, os.cpus().length);
  return { t, peer, depotId: depot.id, layerSlug: LAYER, admin };
}

/** How long after an approval answers until the GeoJSON service serves the new moment (a new ETag). */
async function switchMs(s: Setup): Promise<number> {
  const url = `${s.t.url}/services/geojson/${s.layerSlug}/?bbox=5,47,5.01,47.01`;
  const before = (await fetch(url)).headers.get('etag');
  const added = await s.admin.post(`/api/v1/datum/create-in-depot/${s.depotId}/`, { feature: GRID.feature(FEATURES + 1) });
  if (added.status !== 201) throw new Error(`datum answered ${added.status}: ${JSON.stringify(added.body)}`);
  const approve = await s.admin.post(`/api/v1/moment/${added.body.moment_id}/approve/`, {});
  if (approve.status !== 200) throw new Error(`approve answered ${approve.status}`);
  const t0 = performance.now();
  for (;;) {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.headers.get('etag') !== before) return performance.now() - t0;
    if (performance.now() - t0 > 30_000) throw new Error('the services did not switch within 30 s');
  }
}

async function main(): Promise<void> {
  banner('bench/services', `${os.cpus().length} CPUs, ${WORKER_THREADS} render threads, ${FEATURES} polygons`);
  const why = await unreachable(POSTGRES_URL);
  if (why) throw new Error(`PostgreSQL (with PostGIS) is needed at ${redact(POSTGRES_URL)}: ${why}`);
  const dir = await mkdtemp(join(process.env.BENCH_DIR ?? os.tmpdir(), 'werkbank-bench-services-'));
  let s: Setup | undefined;
  try {
    const geojson = join(dir, 'features.geojson');
    await GRID.writeGeoJson(geojson);
    s = await setUp(dir, geojson);
    const wfs = (base: string, typeName: string, format?: string) =>
      `${base}?SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=${typeName}${format ? `&OUTPUTFORMAT=${format}` : ''}`;
    const ourWfs = `${s.t.url}/services/wfs/${s.layerSlug}`;
    const reads: Record<string, { url: string; gml: boolean }> = {
      'GeoJSON service, werkbank': { url: `${s.t.url}/services/geojson/${s.layerSlug}/`, gml: false },
      'WFS GeoJSON, werkbank': { url: wfs(ourWfs, `wb:${LAYER}`, 'application/json'), gml: false },
      'WFS GeoJSON, MapServer': { url: wfs(s.peer.url, LAYER, 'geojson'), gml: false },
      'WFS GML 3.2, werkbank': { url: wfs(ourWfs, `wb:${LAYER}`), gml: true },
      'WFS GML 3.2, MapServer': { url: wfs(s.peer.url, LAYER), gml: true },
    };
    const sizes = new Map<string, number>();
    const results = await alternating(ONLY ? [] : Object.keys(reads), async (target) => {
      const r = await readAll(reads[target].url, reads[target].gml);
      if (r.features !== FEATURES) throw new Error(`${target} gave ${r.features} features, not ${FEATURES}`);
      sizes.set(target, r.bytes);
      return r.ms;
    });
    const got = (name: string) => results.get(name) ?? [];
    console.log(`\n${FEATURES} polygons, median (min–max) of ${PASSES} passes`);
    for (const target of ONLY ? [] : Object.keys(reads))
      console.log(
        `  ${target.padEnd(26)} ${fmt(spread(got(target).map((x) => x / 1000)), 2)} s (${((sizes.get(target) ?? 0) / 1048576).toFixed(0)} MiB)`,
      );

    // WMS GetMap under load, each scale: ours and MapServer's in turns, who goes first alternating.
    const getMap = (base: string, w: [number, number, number, number]) =>
      `${base}?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=${LAYER}&STYLES=&CRS=EPSG:4326` +
      `&BBOX=${w[1]},${w[0]},${w[3]},${w[2]}&WIDTH=1024&HEIGHT=768&FORMAT=image/png&TRANSPARENT=TRUE`;
    // The first map starts the render workers; it is no part of the measured load.
    for (const base of SKIP_WMS ? [] : [`${s.t.url}/services/wms/${LAYER}`, s.peer.url]) {
      const first = await fetch(getMap(base, SCALES[0][1]));
      if (first.status !== 200) throw new Error(`GetMap at ${base} answered ${first.status}`);
      await first.arrayBuffer();
    }
    const load = new LoadRunner();
    const wms: Array<{ scale: string; ours: number[]; theirs: number[]; oursP95: number[]; theirsP95: number[] }> = [];
    try {
      for (const [scale, w, counted] of SKIP_WMS ? [] : SCALES) {
        const row = { scale, ours: [] as number[], theirs: [] as number[], oursP95: [] as number[], theirsP95: [] as number[] };
        await alternating(['werkbank', 'MapServer'], async (target, pass) => {
          const url = target === 'werkbank' ? getMap(`${s!.t.url}/services/wms/${LAYER}`, w) : getMap(s!.peer.url, w);
          // Count mode's warm-up: one map per connection, not measured (time mode warms up in its job).
          if (counted)
            await load.run({
              url,
              connections: CONNECTIONS,
              warmupSeconds: 0,
              seconds: 0,
              amount: CONNECTIONS,
              timeoutSeconds: 120,
            });
          const result = await load.run({
            url,
            connections: CONNECTIONS,
            warmupSeconds: counted ? 0 : LOAD_SECONDS / 5,
            seconds: LOAD_SECONDS,
            ...(counted ? { amount: CONNECTIONS * WHOLE_MAPS_PER_CONNECTION } : {}),
            // A whole-layer map of 100,000 polygons takes seconds on either server.
            timeoutSeconds: 120,
          });
          if (counted && result.requests !== CONNECTIONS * WHOLE_MAPS_PER_CONNECTION)
            throw new Error(
              `GetMap ${scale}, ${target}: ${result.requests} of ${CONNECTIONS * WHOLE_MAPS_PER_CONNECTION} maps answered`,
            );
          if (result.errors || result.non2xx || !result.requests)
            throw new Error(
              `GetMap ${scale}, ${target}: ${result.requests} answers, ${result.errors} errors, ${result.non2xx} not 2xx`,
            );
          const m = measure('postgresql', scale, target, result, pass);
          (target === 'werkbank' ? row.ours : row.theirs).push(m.requestsPerSecond);
          (target === 'werkbank' ? row.oursP95 : row.theirsP95).push(m.p95);
        });
        wms.push(row);
        console.log(
          `  GetMap 1024×768, ${scale.padEnd(11)} werkbank ${fmt(spread(row.ours), 2)} maps/s (p95 ${fmt(spread(row.oursP95), 0)} ms), ` +
            `MapServer ${fmt(spread(row.theirs), 2)} maps/s (p95 ${fmt(spread(row.theirsP95), 0)} ms)`,
        );
      }
    } finally {
      await load.close();
    }

    const switches: number[] = [];
    for (let i = 0; i < (ONLY ? 0 : PASSES); i++) switches.push(await switchMs(s));
    if (!ONLY) console.log(`  approval to new ETag: ${fmt(spread(switches), 0)} ms`);
    const aims: Aim[] = [
      ...(ONLY ? [] : (['GeoJSON', 'GML 3.2'] as const)).map((kind) => ({
        what: `WFS ${kind} of the whole layer / MapServer`,
        value: spread(ratios(got(`WFS ${kind}, werkbank`), got(`WFS ${kind}, MapServer`))),
        aim: `<= ${AIM_READ}`,
        met: (x: number) => x <= AIM_READ,
        digits: 2,
      })),
      ...wms.map((row) => ({
        what: `WMS GetMap throughput, ${row.scale} / MapServer`,
        value: spread(ratios(row.ours, row.theirs)),
        aim: `>= ${AIM_WMS}`,
        met: (x: number) => x >= AIM_WMS,
        digits: 2,
      })),
      ...(ONLY
        ? []
        : [
            {
              what: 'approval until served (ms)',
              value: spread(switches),
              aim: `< ${AIM_SWITCH_MS}`,
              met: (x: number) => x < AIM_SWITCH_MS,
              digits: 0,
            },
          ]),
    ];
    judge(aims);
  } finally {
    await s?.peer.stop();
    await s?.t.close();
    await rm(dir, { recursive: true, force: true });
  }
}

runBench('bench/services', main);
