/**
 * bench/import: a 1,000,000-row CSV of points and a 200 MB GeoJSON of polygons streamed into a
 * depot by `depot.import_file` on a switchboard (uploaded into a frame, then run), next to
 * `ogr2ogr --config PG_USE_COPY YES` loading the same files and a raw `\copy` of the same rows,
 * all into the same PostgreSQL database in the same run. Prints rows/s, the time ratios and the
 * peak RSS of the process that imports (Werkbank runs in this process, so its peak is ours).
 * `npm run bench:import`; BENCH_ROWS and BENCH_GEOJSON_MB scale it down; see bench/README.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { basename, join } from 'node:path';
import type { TestServer } from '@werkbank/testing/node';
import { expectStatus, type Client } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  FRAMES,
  get,
  link,
  newSwitchboard,
  runAndWait,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { readRss, resetPeak, sampleRss } from './child-process';
import { writePointsCsv, writePolygonsGeoJson, type Input } from './import-data';
import { ogr2ogr, rawCopy, sql, type PeerRun } from './import-peers';
import { printImportReport, type ImportResult } from './import-report';
import { postMultipart } from './upload-client';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const GEOJSON_MB = Number(process.env.BENCH_GEOJSON_MB ?? 200);
if (!(ROWS >= 1 && GEOJSON_MB > 0)) throw new Error('BENCH_ROWS must be at least 1 and BENCH_GEOJSON_MB more than 0');
const BASE_DIR = process.env.BENCH_DIR ?? os.tmpdir();

/** Uploads `input` into a new file frame of `sb`, streamed from disk like the frame dialog sends it. */
async function upload(t: TestServer, client: Client, sb: Obj, input: Input): Promise<Obj> {
  const frame = await addFrame(client, sb, 'file');
  const reply = await postMultipart(
    `${t.url}${FRAMES}${frame.id}/upload/`,
    { path: basename(input.path), file: input.path, bytes: input.bytes },
    {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrftoken': client.csrfToken ?? '',
      origin: t.url,
    },
  );
  if (reply.status !== 201) throw new Error(`uploading ${input.path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  console.log(`  uploaded ${basename(input.path)} in ${(reply.ms / 1000).toFixed(1)} s (not part of the import time)`);
  return frame;
}

/**
 * The Werkbank path: a depot of features, a switchboard `file frame → depot.import_file → moment`,
 * the file uploaded, then the run timed with this process's peak RSS (VmHWM reset before it,
 * sampled as a backstop). Fails unless the moment holds every row.
 */
async function werkbankImport(
  t: TestServer,
  client: Client,
  input: Input,
  ports: Array<{ name: string; default_value: unknown }>,
): Promise<PeerRun & { rssBefore: number }> {
  const depot = expectStatus<Obj>(
    await client.post('/api/v1/depot/', { name: `bench ${basename(input.path)}`, content_type: 'feature' }),
    201,
  );
  const sb = await newSwitchboard(client);
  const file = await upload(t, client, sb, input);
  const moment = await addFrame(client, sb, 'int');
  const node = await addNode(client, sb, 'depot.import_file', [
    { name: 'depot', default_value: { value: depot.resource_uri } },
    ...ports,
  ]);
  await link(client, node, 'file', file, true);
  await link(client, node, 'moment', moment, false);
  await sql(t.server.db.url, 'CHECKPOINT');

  const exact = resetPeak(process.pid);
  const rssBefore = readRss(process.pid).current;
  const sampler = sampleRss(process.pid);
  const started = performance.now();
  const exec = await runAndWait(t, client, sb);
  const ms = performance.now() - started;
  const sampled = sampler.stop();
  const peakRss = exact ? Math.max(sampled, readRss(process.pid).peak) : sampled;
  if (exec.status !== 'success') {
    throw new Error(
      `depot.import_file failed: ${(await get(client, node.resource_uri)).runinfo?.exception ?? JSON.stringify(exec)}`,
    );
  }
  const [written] = expectStatus<{ objects: Array<{ value: number }> }>(
    await client.get(`${FRAMES}${moment.id}/content/`),
    200,
  ).objects;
  const size = expectStatus<{ size: number }>(await client.get(`/api/v1/moment/${written.value}/`), 200).size;
  if (size !== input.rows) throw new Error(`the depot holds ${size} datums, the file ${input.rows} rows`);
  return { ms, peakRss, rssBefore };
}

/** Fails unless `table` holds `rows` rows. */
async function expectRows(url: string, table: string, rows: number): Promise<void> {
  const [{ n }] = await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM ${table}`);
  if (n !== rows) throw new Error(`${table} holds ${n} rows, the file ${rows}`);
}

/** ogr2ogr, then the raw COPY into a fresh `table` made by `create`; each after a CHECKPOINT, each checked. */
async function peers(
  url: string,
  input: Input,
  copyInput: Input,
  format: 'csv' | 'geojson',
  create: string,
  copyOptions: string,
) {
  await sql(url, 'CHECKPOINT');
  const ogr = await ogr2ogr(input, format, url, `bench_ogr_${format}`);
  await expectRows(url, `bench_ogr_${format}`, input.rows);
  const indexes = await sql<{ indexdef: string }>(
    url,
    `SELECT indexdef FROM pg_indexes WHERE tablename = 'bench_ogr_${format}' AND indexdef ILIKE '%USING gist%'`,
  );
  console.log(`  ogr2ogr ${(ogr.ms / 1000).toFixed(1)} s; spatial index: ${indexes.length ? indexes[0].indexdef : 'none'}`);
  await sql(url, `DROP TABLE IF EXISTS bench_copy_${format}`, create, 'CHECKPOINT');
  const copy = await rawCopy(copyInput, url, `bench_copy_${format}`, copyOptions);
  await expectRows(url, `bench_copy_${format}`, input.rows);
  return { ogr2ogr: ogr, copy };
}

async function main(): Promise<void> {
  console.log(
    `bench/import ${new Date().toISOString()} · node ${process.version} · ${os.cpus().length} CPUs · ${os.cpus()[0]?.model ?? ''}`,
  );
  const why = await unreachable(POSTGRES_URL);
  if (why) throw new Error(`PostgreSQL is not reachable at ${redact(POSTGRES_URL)} (${why}); set BENCH_DATABASE_URL`);
  const dir = await mkdtemp(join(BASE_DIR, 'werkbank-bench-import-'));
  let t: TestServer | undefined;
  try {
    let started = performance.now();
    const csv = await writePointsCsv(join(dir, 'punkte.csv'), ROWS);
    const { geojson, lines } = await writePolygonsGeoJson(
      join(dir, 'flaechen.geojson'),
      join(dir, 'flaechen.jsonl'),
      GEOJSON_MB * 1024 * 1024,
    );
    console.log(
      `  wrote ${csv.rows.toLocaleString('en-US')} CSV rows (${(csv.bytes / 1048576).toFixed(0)} MiB) and ` +
        `${geojson.rows.toLocaleString('en-US')} GeoJSON features (${(geojson.bytes / 1048576).toFixed(0)} MiB) ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s into ${dir}`,
    );
    t = await startServer(POSTGRES_URL);
    const url = t.server.db.url;
    const [{ version }] = await sql<{ version: string }>(url, `SELECT current_setting('server_version') AS version`);
    const [{ postgis }] = await sql<{ postgis: number }>(
      url,
      `SELECT count(*)::int AS postgis FROM pg_available_extensions WHERE name = 'postgis'`,
    );
    // The peer issue 15 names: ogr2ogr into PostGIS, which builds its GiST index on the geometry.
    if (postgis) await sql(url, 'CREATE EXTENSION IF NOT EXISTS postgis');
    console.log(
      `  Werkbank on a fresh database at ${redact(url)} (PostgreSQL ${version}` +
        `${postgis ? ', PostGIS: ogr2ogr writes a geometry column with a GiST index' : '; no PostGIS (install postgresql-15-postgis-3): ogr2ogr stores WKB in a bytea column, without a spatial index'})`,
    );
    const client = await t.admin();
    const results: ImportResult[] = [];

    started = performance.now();
    console.log('\n[csv] points');
    const csvOurs = await werkbankImport(t, client, csv, [{ name: 'sep', default_value: { value: ',' } }]);
    console.log(`  werkbank ${(csvOurs.ms / 1000).toFixed(1)} s`);
    const csvPeers = await peers(
      url,
      csv,
      csv,
      'csv',
      'CREATE TABLE bench_copy_csv (x double precision, y double precision, name text, kind text, value double precision)',
      'FORMAT csv, HEADER true',
    );
    results.push({ dataset: 'csv', rows: csv.rows, bytes: csv.bytes, werkbank: csvOurs, ...csvPeers });

    console.log('\n[geojson] polygons');
    const geoOurs = await werkbankImport(t, client, geojson, []);
    console.log(`  werkbank ${(geoOurs.ms / 1000).toFixed(1)} s`);
    const geoPeers = await peers(
      url,
      geojson,
      lines,
      'geojson',
      'CREATE TABLE bench_copy_geojson (feature jsonb)',
      'FORMAT text',
    );
    results.push({ dataset: 'geojson', rows: geojson.rows, bytes: geojson.bytes, werkbank: geoOurs, ...geoPeers });
    await t.close();
    t = undefined;

    // The same imports on the embedded database (on disk, as in production), beside the
    // PostgreSQL figures (no aim).
    if (process.env.BENCH_EMBEDDED !== '0') {
      t = await startServer(undefined, { dataDir: join(dir, 'embedded') });
      const embeddedClient = await t.admin();
      console.log('\n[csv] points, embedded (PGlite)');
      results[0].embedded = await werkbankImport(t, embeddedClient, csv, [{ name: 'sep', default_value: { value: ',' } }]);
      console.log(`  werkbank embedded ${(results[0].embedded.ms / 1000).toFixed(1)} s`);
      console.log('\n[geojson] polygons, embedded (PGlite)');
      results[1].embedded = await werkbankImport(t, embeddedClient, geojson, []);
      console.log(`  werkbank embedded ${(results[1].embedded.ms / 1000).toFixed(1)} s`);
    }
    console.log(`\n  measured in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    printImportReport(results);
  } finally {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`\nbench/import failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
