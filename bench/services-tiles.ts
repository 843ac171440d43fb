/**
 * bench/services-tiles: OGC API – Tiles vector tiles of a layer (issue 17, decision 0083) against a
 * minimal ST_AsMVT handler on PostGIS, on the same PostgreSQL server, in the same run.
 *
 * - Werkbank: a public layer over a depot of BENCH_FEATURES small polygons (default 100,000),
 *   `GET /services/ogc/{name}/tiles/WebMercatorQuad/{z}/{y}/{x}`. **Cold**: every tile's first
 *   request (the tile cache emptied before each pass): spatial index → worker pool (geojson-vt and
 *   our MVT encoder) → tile cache. **Warm**: the same tiles again, from the cache.
 * - Peer: a node:http handler that sends one `ST_AsMVT(ST_AsMVTGeom(...))` statement per tile
 *   (extent 4096, buffer 64, clipped) to a GiST-indexed PostGIS table of the same features loaded by
 *   ogr2ogr (EPSG:4326, as the depot holds them), through a pg pool.
 * - Both are asked for the same tiles (every tile of zoom 8 over the data and a sample of zoom 11)
 *   by CONNECTIONS concurrent clients; throughput in tiles per second. The feature count of every
 *   tile must agree between the two (the bench fails otherwise).
 *
 * Aims (issue 17): cold ≥ 0.8× ST_AsMVT, warm ≥ 5× ST_AsMVT.
 * `npm run bench:services-tiles`; BENCH_SMOKE=1 for the smoke mode. See bench/README.md.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { MessageBus, type AuthUser } from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { TileCache } from '../plugins/services/src/node/tile-cache';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { PolygonGrid } from './polygon-grid';
import { alternating, banner, fmt, judge, PASSES, ratios, runBench, sized, SMOKE, spread, type Aim } from './bench-mode';

const FEATURES = sized('BENCH_FEATURES', 100_000, 2000);
const CONNECTIONS = 4;
const AIM_COLD = 0.8;
const AIM_WARM = 5;
/** Warm rounds per pass (each asks for every tile once). */
const WARM_ROUNDS = SMOKE ? 1 : 3;
const run = promisify(execFile);
/** The benched polygons (bench/polygon-grid.ts, as bench/extent). */
const GRID = new PolygonGrid(FEATURES);

type Tile = [number, number, number];

/** Every tile of zoom 8 over the data and every `step`-th of zoom 11. */
function tiles(): Tile[] {
  const col = (lon: number, z: number) => Math.floor(((lon + 180) / 360) * 2 ** z);
  const row = (lat: number, z: number) => {
    const s = Math.sin((lat * Math.PI) / 180);
    return Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * 2 ** z);
  };
  const out: Tile[] = [];
  for (const [z, step] of [
    [8, 1],
    [11, SMOKE ? 40 : 13],
  ]) {
    let k = 0;
    for (let y = row(55, z); y <= row(47, z); y++)
      for (let x = col(5, z); x <= col(15, z); x++) if (k++ % step === 0) out.push([z, x, y]);
  }
  return out;
}

/** Features per layer of an MVT (protobuf: tile field 3 = layer, layer field 2 = feature). */
function featureCount(bytes: Uint8Array): number {
  let count = 0;
  const varint = (b: Uint8Array, p: { i: number }) => {
    let v = 0;
    let shift = 1;
    for (;;) {
      const byte = b[p.i++];
      v += (byte & 0x7f) * shift;
      if (byte < 0x80) return v;
      shift *= 128;
    }
  };
  const fields = (b: Uint8Array, visit: (field: number, body: Uint8Array) => void) => {
    const p = { i: 0 };
    while (p.i < b.length) {
      const key = varint(b, p);
      const [field, wire] = [Math.floor(key / 8), key & 7];
      if (wire === 0) varint(b, p);
      else if (wire === 1) p.i += 8;
      else if (wire === 5) p.i += 4;
      else if (wire === 2) {
        const len = varint(b, p);
        visit(field, b.subarray(p.i, p.i + len));
        p.i += len;
      } else throw new Error(`unexpected protobuf wire type ${wire}`);
    }
  };
  fields(bytes, (f, layer) => f === 3 && fields(layer, (g) => g === 2 && count++));
  return count;
}

function libpq(url: string): string {
  const u = new URL(url);
  return `PG:dbname=${decodeURIComponent(u.pathname.replace(/^\//, ''))} host=${u.hostname || '127.0.0.1'} port=${u.port || '5432'} user=${decodeURIComponent(u.username || 'postgres')}`;
}

/** The minimal ST_AsMVT handler: `/{z}/{x}/{y}` → one statement, 204 when the tile is empty. */
const PEER_SQL = `
  SELECT ST_AsMVT(q, 'bench', 4096, 'geom') AS mvt FROM (
    SELECT id, name, kind, area,
      ST_AsMVTGeom(ST_Transform(wkb_geometry, 3857), ST_TileEnvelope($1, $2, $3), 4096, 64, true) AS geom
    FROM bench_tiles_peer
    WHERE wkb_geometry && ST_Transform(ST_TileEnvelope($1, $2, $3, margin => 64.0 / 4096), 4326)
  ) q WHERE geom IS NOT NULL`;

async function peerServer(url: string): Promise<{ server: Server; pool: pg.Pool; base: string }> {
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  const server = createServer((req, res) => {
    const m = /^\/(\d+)\/(\d+)\/(\d+)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    pool.query(PEER_SQL, [Number(m[1]), Number(m[2]), Number(m[3])]).then(
      ({ rows }) => {
        const mvt = rows[0].mvt as Buffer;
        if (!mvt.length) res.writeHead(204).end();
        else res.writeHead(200, { 'content-type': 'application/vnd.mapbox-vector-tile' }).end(mvt);
      },
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { server, pool, base: `http://127.0.0.1:${port}` };
}

/** Asks for every tile once with CONNECTIONS clients; tiles per second and each tile's feature count. */
async function throughput(list: Tile[], url: (t: Tile) => string): Promise<{ tps: number; counts: number[] }> {
  const counts: number[] = [];
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < list.length) {
      const k = next++;
      const res = await fetch(url(list[k]));
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status !== 200 && res.status !== 204) throw new Error(`${url(list[k])} answered ${res.status}`);
      counts[k] = res.status === 204 ? 0 : featureCount(bytes);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  return { tps: list.length / ((performance.now() - started) / 1000), counts };
}

async function main(): Promise<void> {
  banner('bench/services-tiles', `${os.cpus().length} CPUs, ${CONNECTIONS} connections`);
  const why = await unreachable(POSTGRES_URL);
  if (why) throw new Error(`PostgreSQL (with PostGIS) is needed at ${redact(POSTGRES_URL)}: ${why}`);
  const dir = await mkdtemp(join(process.env.BENCH_DIR ?? os.tmpdir(), 'werkbank-bench-tiles-'));
  console.log(`\nstarting Werkbank on a fresh database at ${redact(POSTGRES_URL)}`);
  const t = await startServer(POSTGRES_URL);
  let peer: Awaited<ReturnType<typeof peerServer>> | undefined;
  try {
    const db = t.server.db.dataSource;
    const [{ id: adminId }] = (await db.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
      t.server.config.adminUsername,
    ])) as { id: number }[];
    const admin: AuthUser = (await t.server.accounts.loadAuthUser(adminId))!;
    const client = await t.admin();
    const depot = (await client.post('/api/v1/depot/', { name: 'bench tiles', content_type: 'feature' })).body as {
      id: number;
      resource_uri: string;
    };
    const access = t.server.kernel.container.get<DepotAccess>(DepotAccess);
    let started = performance.now();
    const { moment_id } = await access.writeStream(admin, depot.id, GRID.datumBatches(), {});
    const approved = await client.post(`/api/v1/moment/${moment_id}/approve/`, {});
    if (approved.status !== 200) throw new Error(`approving the moment answered ${approved.status}`);
    const layer = await client.post('/api/v1/layer/', {
      name: 'Bench tiles',
      slug: 'bench_tiles',
      public: true,
      layerpiles: [depot.resource_uri],
    });
    if (layer.status !== 201) throw new Error(`creating the layer answered ${layer.status} ${JSON.stringify(layer.body)}`);
    console.log(
      `  depot ${depot.id}: ${FEATURES} features written and approved in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const geojson = join(dir, 'features.geojson');
    await GRID.writeGeoJson(geojson);
    await db.query('CREATE EXTENSION IF NOT EXISTS postgis');
    started = performance.now();
    await run('ogr2ogr', [
      '-f',
      'PostgreSQL',
      libpq(t.server.db.url),
      geojson,
      '--config',
      'PG_USE_COPY',
      'YES',
      '-nln',
      'bench_tiles_peer',
      '-overwrite',
      '-lco',
      'SPATIAL_INDEX=GIST',
      '-lco',
      'FID=ogc_fid',
      '-lco',
      'GEOMETRY_NAME=wkb_geometry',
    ]);
    await db.query('VACUUM ANALYZE bench_tiles_peer');
    await db.query('VACUUM ANALYZE magazine_datum_version');
    console.log(`  PostGIS table loaded by ogr2ogr in ${((performance.now() - started) / 1000).toFixed(1)} s (GiST index)`);
    peer = await peerServer(t.server.db.url);

    const list = tiles();
    const ours = ([z, x, y]: Tile) => `${t.url}/services/ogc/bench_tiles/tiles/WebMercatorQuad/${z}/${y}/${x}`;
    const theirs = ([z, x, y]: Tile) => `${peer!.base}/${z}/${x}/${y}`;
    // Warm-up of PostgreSQL's buffers and the worker thread: the peer once, ours once (then emptied).
    const expected = (await throughput(list, theirs)).counts;
    const reported = new Set<string>();
    const check = (counts: number[], what: string) => {
      const differ = list.filter((_, k) => counts[k] !== expected[k]);
      // ST_AsMVTGeom drops slivers that collapse in the buffer, geojson-vt keeps them: a few tiles at
      // the data's edge may differ; more than 2 % is an error.
      if (differ.length && !reported.has(what)) {
        reported.add(what);
        console.log(
          `  ${what}: ${differ.length} of ${list.length} tiles differ from ST_AsMVT's in feature count (slivers in the buffer), e.g. ` +
            differ
              .slice(0, 3)
              .map((tile) => `${tile.join('/')}: ${counts[list.indexOf(tile)]} vs ${expected[list.indexOf(tile)]}`)
              .join(', '),
        );
      }
      if (differ.length > list.length * 0.02)
        throw new Error(
          `${what}: ${differ.length} of ${list.length} tiles hold other features than ST_AsMVT's, e.g. ` +
            differ
              .slice(0, 3)
              .map((tile) => `${tile.join('/')}: ${counts[list.indexOf(tile)]} vs ${expected[list.indexOf(tile)]}`)
              .join(', '),
        );
    };
    check((await throughput(list, ours)).counts, 'Werkbank');
    const total = expected.reduce((a, b) => a + b, 0);
    console.log(`  ${list.length} tiles (zoom 8 and 11), ${total} features in all, ${expected.filter((c) => !c).length} empty`);

    let extra = 0;
    const far = (k: number) => ({
      type: 'Feature',
      properties: { id: -k },
      geometry: { type: 'Point', coordinates: [-100, -40] },
    });
    /** Resolves at the next approval's message in this process (the tile service forgets publications on it). */
    const bus = t.server.kernel.container.get<MessageBus>(MessageBus);
    const nextApproval = () =>
      new Promise<void>((resolve) => {
        const sub = bus.subscribe('werkbank_moment_approved', () => {
          sub.dispose();
          resolve();
        });
      });
    const cache = t.server.kernel.container.get(TileCache);
    const COLD = 'Werkbank cold';
    const WARM = 'Werkbank warm';
    const PEER = 'ST_AsMVT';
    const results = await alternating([COLD, WARM, PEER], async (target) => {
      if (target === PEER) {
        const r = await throughput(list, theirs);
        check(r.counts, 'ST_AsMVT again');
        return r.tps;
      }
      if (target === COLD) {
        // A new approved moment (one more feature far from the tiles): a new publication, nothing cached.
        const { moment_id: next } = await access.write(admin, depot.id, [{ feature: far(++extra) }], { mode: 'append' });
        const approval = nextApproval();
        const ok = await client.post(`/api/v1/moment/${next}/approve/`, {});
        if (ok.status !== 200) throw new Error(`approving moment ${next} answered ${ok.status}`);
        await approval;
        const started = performance.now();
        const r = await throughput(list, ours);
        // Cold ends when the tiles are recorded too (the answers go out before that).
        await cache.settled();
        check(r.counts, 'Werkbank cold');
        return list.length / ((performance.now() - started) / 1000);
      }
      // Warm: every tile cached first (a no-op after the cold target), then the rounds measured.
      await throughput(list, ours);
      const tps: number[] = [];
      for (let round = 0; round < WARM_ROUNDS; round++) {
        const r = await throughput(list, ours);
        check(r.counts, 'Werkbank warm');
        tps.push(r.tps);
      }
      return spread(tps).median;
    });
    const cold = results.get(COLD)!;
    const warm = results.get(WARM)!;
    const peerTps = results.get(PEER)!;
    console.log(
      `\n${FEATURES} features, ${list.length} tiles, ${CONNECTIONS} connections; tiles per second, median (min–max) of ${PASSES} passes`,
    );
    console.log(`  Werkbank cold ${fmt(spread(cold))}, warm ${fmt(spread(warm))}; ST_AsMVT ${fmt(spread(peerTps))}`);
    const aims: Aim[] = [
      {
        what: 'cold tiles / ST_AsMVT',
        value: spread(ratios(cold, peerTps)),
        aim: `>= ${AIM_COLD}`,
        met: (x) => x >= AIM_COLD,
        digits: 2,
      },
      {
        what: 'warm tiles / ST_AsMVT',
        value: spread(ratios(warm, peerTps)),
        aim: `>= ${AIM_WARM}`,
        met: (x) => x >= AIM_WARM,
        digits: 2,
      },
    ];
    judge(aims);
  } finally {
    if (peer) {
      peer.server.close();
      await peer.pool.end();
    }
    await t.close();
    await rm(dir, { recursive: true, force: true });
  }
}

runBench('bench/services-tiles', main);
