import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectStatus, startTestServer, type Client, type TestServer, type TestServerOptions } from '@werkbank/testing/node';
import { adminWithDepotAccess, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import { MessageBus, type AuthUser } from '@werkbank/sdk/node';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';
import type { Layer } from '@werkbank/plugin-layers/api';
import { TileCache } from '../src/node/tile-cache';

/** The plugins a services suite needs (with what they require). */
export const PLUGINS = ['services'];

export interface ServicesFixture {
  t: TestServer;
  admin: Client;
  adminUser: AuthUser;
  access: DepotAccess;
}

/** One server with the services plugin for a suite: `servicesServer((s) => (f = s))` inside a describe (options: e.g. its config). */
export function servicesServer(bind: (s: ServicesFixture) => void, options: Omit<TestServerOptions, 'plugins'> = {}): void {
  let t: TestServer | undefined;
  before(async () => {
    t = await startTestServer({ ...options, plugins: PLUGINS });
    bind({ t, ...(await adminWithDepotAccess(t)) });
  });
  after(() => t?.close());
}

/**
 * Trees on a 20 × 20 grid 0.01° apart over Cologne as GDAL writes them: a CSV turned into GeoJSON
 * by ogr2ogr (with `-t_srs`, in another CRS). Properties: id (integer), art (string), hoehe (real).
 */
export function treesGeojson(dir: string, n = 400, srs?: string): string {
  const csv = join(dir, `baeume-${n}.csv`);
  const rows = ['id,art,hoehe,lon,lat'];
  for (let i = 0; i < n; i++)
    rows.push(
      `${i},${i % 2 ? 'Eiche' : 'Buche'},${5 + (i % 20) + 0.5},${6.8 + (i % 20) * 0.01},${50.8 + Math.floor(i / 20) * 0.01}`,
    );
  writeFileSync(csv, rows.join('\n') + '\n');
  const out = join(dir, `baeume-${n}-${srs?.replace(':', '') ?? '4326'}.geojson`);
  execFileSync('ogr2ogr', [
    '-f',
    'GeoJSON',
    out,
    csv,
    '-oo',
    'X_POSSIBLE_NAMES=lon',
    '-oo',
    'Y_POSSIBLE_NAMES=lat',
    '-oo',
    'KEEP_GEOM_COLUMNS=NO',
    '-oo',
    'AUTODETECT_TYPE=YES',
    ...(srs
      ? ['-s_srs', 'EPSG:4326', '-t_srs', srs, '-lco', 'RFC7946=NO', '-lco', 'COORDINATE_PRECISION=6']
      : ['-a_srs', 'EPSG:4326', '-lco', 'COORDINATE_PRECISION=7']),
  ]);
  return out;
}

/**
 * A feature depot filled from a GeoJSON file (its features labelled with `crs` when given, as
 * imports without auto_transform store them), its moment approved.
 */
export async function approvedDepot(f: ServicesFixture, path: string, crs?: string): Promise<Depot> {
  const depot = await newDepot(f.admin, 'feature');
  const fc = JSON.parse(readFileSync(path, 'utf8')) as { features: Record<string, unknown>[] };
  const label = crs ? { crs: { type: 'name', properties: { name: crs } } } : {};
  const { moment_id } = await f.access.write(
    f.adminUser,
    depot.id,
    fc.features.map((feature) => ({ feature: { ...feature, ...label } })),
    { message: 'ogr2ogr' },
  );
  expectStatus(await f.admin.post(`/api/v1/moment/${moment_id}/approve/`, {}), 200);
  return depot;
}

let seq = 0;
/** A layer stacking the depots (public unless told otherwise), with a valid short name. */
export async function servedLayer(c: Client, depots: Depot[], fields: Record<string, unknown> = {}): Promise<Layer> {
  const n = ++seq;
  return expectStatus<Layer>(
    await c.post('/api/v1/layer/', {
      name: `Bäume ${n}`,
      slug: `baeume_${n}`,
      public: true,
      layerpiles: depots.map((d) => d.resource_uri),
      ...fields,
    }),
    201,
  );
}

/**
 * Approves a moment and resolves once this server has heard the approval message: maps and tiles
 * keep a caller's publication until then (decision 0083), and on PostgreSQL the message arrives
 * over LISTEN/NOTIFY just after the approval's answer.
 */
export async function approveAndHear(f: ServicesFixture, momentId: number): Promise<void> {
  const heard = new Promise<void>((resolve) => {
    const sub = f.t.server.kernel.container.get<MessageBus>(MessageBus).subscribe('werkbank_moment_approved', () => {
      sub.dispose();
      resolve();
    });
  });
  expectStatus(await f.admin.post(`/api/v1/moment/${momentId}/approve/`, {}), 200);
  await heard;
}

/** Resolves when the tile cache has recorded the tiles served so far (it writes them after the answers). */
export async function tilesRecorded(f: ServicesFixture): Promise<void> {
  await f.t.server.kernel.container.get(TileCache).settled();
}

/** Runs `fn` with every cached tile kept in the blob store, as tiles too large for their row are. */
export async function withBlobTiles<T>(f: ServicesFixture, fn: () => Promise<T>): Promise<T> {
  const cache = f.t.server.kernel.container.get(TileCache);
  const inline = cache.inlineBytes;
  cache.inlineBytes = 0;
  try {
    return await fn();
  } finally {
    cache.inlineBytes = inline;
  }
}
