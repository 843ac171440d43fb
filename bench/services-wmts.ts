/**
 * bench/services-wmts: WMTS tiles of a polygon layer (issue 17, decision 0083 "WMTS").
 *
 * - Cold tiles: the first request of each of TILES WebMercatorQuad tiles at zoom 14 over the data
 *   (drawn by the WMS renderer in the worker pool, stored in the tile cache), 4 requests at a time.
 *   A fresh approved moment before each pass makes every tile cold again.
 * - Warm tiles: one cached tile requested by autocannon over 10 keep-alive connections (the
 *   publication is resolved per request, the tile comes from the cache). Aim: at least 2,000
 *   tiles per second.
 *
 * `npx tsx bench/services-wmts.ts`; BENCH_FEATURES (default 20,000) scales the layer; it runs on
 * PostgreSQL (BENCH_DATABASE_URL) when reachable, else on the embedded database.
 */
import type { AuthUser } from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { banner, fmt, judge, PASSES, runBench, sized, SMOKE, spread } from './bench-mode';
import { LoadRunner } from './load-runner';

const FEATURES = sized('BENCH_FEATURES', 20_000, 500);
const TILES = SMOKE ? 8 : 64;
const SECONDS = SMOKE ? 1 : 5;
const CONNECTIONS = 10;
const AIM_WARM = 2000;
const ZOOM = 14;

/** Squares on a grid over Cologne (lon 6.85…7.05, lat 50.88…51.02) with a kind the style colours by. */
const SIDE = Math.ceil(Math.sqrt(FEATURES));
const DX = 0.2 / SIDE;
const DY = 0.14 / SIDE;
function feature(i: number): Record<string, unknown> {
  const x = 6.85 + (i % SIDE) * DX;
  const y = 50.88 + Math.floor(i / SIDE) * DY;
  const r = (n: number) => Math.round(n * 1e7) / 1e7;
  const [x1, y1] = [x + DX * 0.7, y + DY * 0.7];
  return {
    type: 'Feature',
    properties: { nr: i, art: i % 2 ? 'Wiese' : 'Wald' },
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [r(x), r(y)],
          [r(x1), r(y)],
          [r(x1), r(y1)],
          [r(x), r(y1)],
          [r(x), r(y)],
        ],
      ],
    },
  };
}

const STYLE = {
  rules: [
    {
      name: 'Wiese',
      filter: { op: '==', attribute: 'art', value: 'Wiese' },
      symbol: { symbol_type: 'style', fill: '#33aa33', fill_opacity: 0.6, stroke: '#115511', stroke_width: 1 },
    },
    {
      name: 'Wald',
      filter: { op: '==', attribute: 'art', value: 'Wald' },
      symbol: { symbol_type: 'style', fill: '#996633', fill_opacity: 1, stroke: '#222222', stroke_width: 1 },
    },
  ],
};

/** The zoom-14 tiles over the data's middle, row by row. */
function tiles(): Array<[number, number]> {
  const n = 2 ** ZOOM;
  const col = (lon: number) => Math.floor(((lon + 180) / 360) * n);
  const row = (lat: number) => {
    const r = (lat * Math.PI) / 180;
    return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  };
  const out: Array<[number, number]> = [];
  for (let y = row(51.0); y <= row(50.9) && out.length < TILES; y++)
    for (let x = col(6.87); x <= col(7.03) && out.length < TILES; x++) out.push([y, x]);
  return out;
}

async function main(): Promise<void> {
  const pgProblem = await unreachable(POSTGRES_URL);
  const databaseUrl = pgProblem ? undefined : POSTGRES_URL;
  banner(
    'bench/services-wmts',
    `${FEATURES} polygons, ${databaseUrl ? `PostgreSQL at ${redact(databaseUrl)}` : 'embedded database'}`,
  );
  if (pgProblem) console.log(`  (PostgreSQL not reachable: ${pgProblem}; the embedded database is used)`);
  const t = await startServer(databaseUrl);
  const load = new LoadRunner();
  try {
    const [{ id }] = (await t.server.db.dataSource.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
      t.server.config.adminUsername,
    ])) as { id: number }[];
    const admin: AuthUser = (await t.server.accounts.loadAuthUser(id))!;
    const access = t.server.kernel.container.get<DepotAccess>(DepotAccess);
    const client = await t.admin();
    const depot = (await client.post('/api/v1/depot/', { name: 'bench wmts', content_type: 'feature' })).body as {
      id: number;
      resource_uri: string;
    };
    /** A new approved moment of the same features: every tile is cold again. */
    const approve = async () => {
      const { moment_id } = await access.writeStream(
        admin,
        depot.id,
        (async function* () {
          for (let i = 0; i < FEATURES; i += 5000)
            yield Array.from({ length: Math.min(5000, FEATURES - i) }, (_, j) => ({ feature: feature(i + j) }));
        })(),
        {},
      );
      const res = await client.post(`/api/v1/moment/${moment_id}/approve/`, {});
      if (res.status !== 200) throw new Error(`approve answered ${res.status}`);
      // Tile requests keep a resolved publication for 500 ms unless the approval message came first.
      await new Promise((r) => setTimeout(r, 600));
    };
    await approve();
    const layer = (
      await client.post('/api/v1/layer/', {
        name: 'Bench WMTS',
        slug: 'bench_wmts',
        public: true,
        layerpiles: [depot.resource_uri],
        style: STYLE,
      })
    ).body as { slug: string };
    const url = ([y, x]: [number, number]) => `${t.url}/services/wmts/${layer.slug}/WebMercatorQuad/${ZOOM}/${y}/${x}.png`;
    const addresses = tiles();
    console.log(`  ${addresses.length} tiles of zoom ${ZOOM}; ${CONNECTIONS} connections for ${SECONDS} s per warm pass`);

    const cold: number[] = [];
    const warm: number[] = [];
    const p95: number[] = [];
    for (let pass = 0; pass < PASSES; pass++) {
      if (pass) await approve();
      let next = 0;
      let drawn = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < addresses.length) {
            const res = await fetch(url(addresses[next++]));
            const body = Buffer.from(await res.arrayBuffer());
            if (res.status !== 200 || res.headers.get('x-tile-cache') !== 'miss') throw new Error(`cold tile: ${res.status}`);
            if (body.length > 1000) drawn++;
          }
        }),
      );
      cold.push(addresses.length / ((performance.now() - t0) / 1000));
      if (drawn < addresses.length / 2) throw new Error(`only ${drawn} of ${addresses.length} tiles hold drawn pixels`);
      const r = await load.run({ url: url(addresses[0]), connections: CONNECTIONS, warmupSeconds: 1, seconds: SECONDS });
      if (r.errors || r.timeouts || r.non2xx)
        throw new Error(`warm load: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
      warm.push(r.requests / r.seconds);
      const sorted = [...r.latencies].sort((a, b) => a - b);
      p95.push(sorted[Math.floor(sorted.length * 0.95)] ?? NaN);
      console.log(
        `  pass ${pass + 1}: cold ${cold[pass].toFixed(0)} tiles/s, warm ${warm[pass].toFixed(0)} tiles/s (p95 ${p95[pass].toFixed(1)} ms)`,
      );
    }
    console.log(`\n  cold tiles/s ${fmt(spread(cold))}, warm tiles/s ${fmt(spread(warm))}, warm p95 ms ${fmt(spread(p95))}`);
    judge([
      {
        what: 'WMTS warm tiles per second',
        value: spread(warm),
        aim: `>= ${AIM_WARM}`,
        met: (m) => m >= AIM_WARM,
        digits: 0,
      },
    ]);
  } finally {
    await load.close();
    await t.close();
  }
}

runBench('bench/services-wmts', main);
