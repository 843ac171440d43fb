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
import { applyMemoryPolicy, SEMI_SPACE_MB, semiSpaceInEffect } from '../server/src/memory-policy';
import { POSTGRES_URL, redact, startServer, unreachable } from './bench-server';
import { readRss, resetPeak, sampleRss } from './child-process';
import { writePointsCsv, writePolygonsGeoJson, type Input } from './import-data';
import { backendCpu, ogr2ogr, rawCopy, sql, type PeerRun } from './import-peers';
import { printImportReport, type ImportResult } from './import-report';
import { postMultipart } from './upload-client';
import { alternating, banner, runBench, sized } from './bench-mode';

const ROWS = sized('BENCH_ROWS', 1_000_000, 2000);
const GEOJSON_MB = sized('BENCH_GEOJSON_MB', 200, 0.5);
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
  const pgCpu = t.server.db.kind === 'embedded' ? undefined : await backendCpu(t.server.db.url);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const exec = await runAndWait(t, client, sb);
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const pgCpuMs = await pgCpu?.stop();
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
  return { ms, peakRss, rssBefore, cpuMs: (user + system) / 1000, pgCpuMs };
}

/** Fails unless `table` holds `rows` rows. */
async function expectRows(url: string, table: string, rows: number): Promise<void> {
  const [{ n }] = await sql<{ n: number }>(url, `SELECT count(*)::int AS n FROM ${table}`);
  if (n !== rows) throw new Error(`${table} holds ${n} rows, the file ${rows}`);
}

/** ogr2ogr into `bench_ogr_<format>` (overwritten), after a CHECKPOINT; checked by counting its rows. */
async function ogrPeer(url: string, input: Input, format: 'csv' | 'geojson'): Promise<PeerRun> {
  await sql(url, 'CHECKPOINT');
  const pgCpu = await backendCpu(url);
  const ogr = { ...(await ogr2ogr(input, format, url, `bench_ogr_${format}`)), pgCpuMs: await pgCpu.stop() };
  await expectRows(url, `bench_ogr_${format}`, input.rows);
  const indexes = await sql<{ indexdef: string }>(
    url,
    `SELECT indexdef FROM pg_indexes WHERE tablename = 'bench_ogr_${format}' AND indexdef ILIKE '%USING gist%'`,
  );
  if (!indexes.length) console.log('  (ogr2ogr built no spatial index)');
  return ogr;
}

/** The raw COPY into a fresh `bench_copy_<format>` made by `create`, after a CHECKPOINT; checked. */
async function copyPeer(url: string, copyInput: Input, rows: number, format: string, create: string, copyOptions: string) {
  await sql(url, `DROP TABLE IF EXISTS bench_copy_${format}`, create, 'CHECKPOINT');
  const pgCpu = await backendCpu(url);
  const copy = { ...(await rawCopy(copyInput, url, `bench_copy_${format}`, copyOptions)), pgCpuMs: await pgCpu.stop() };
  await expectRows(url, `bench_copy_${format}`, rows);
  return copy;
}

async function main(): Promise<void> {
  // The server in this process runs with the garbage-collection policy `npm start` gives it.
  const heapGrowing = applyMemoryPolicy();
  const semiSpace = semiSpaceInEffect();
  banner(
    'bench/import',
    `${os.cpus().length} CPUs · ${os.cpus()[0]?.model ?? ''} · HEAP_GROWING_PERCENT=${heapGrowing || 'V8 default'} · ` +
      `semi-space ${semiSpace ? `${semiSpace} MiB` : 'V8 default'}`,
  );
  // The server runs with the young generation its start scripts give it (decision 0094); started
  // without that flag this process measures something else, and says so.
  if (semiSpace !== SEMI_SPACE_MB)
    console.log(`  NOTE: the server starts with --max-semi-space-size=${SEMI_SPACE_MB}; run this with it (npm run bench:import)`);
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
    const csvPorts = [{ name: 'sep', default_value: { value: ',' } }];
    const datasets = [
      {
        name: 'csv',
        input: csv,
        copyInput: csv,
        ports: csvPorts,
        create:
          'CREATE TABLE bench_copy_csv (x double precision, y double precision, name text, kind text, value double precision)',
        copyOptions: 'FORMAT csv, HEADER true',
      },
      {
        name: 'geojson',
        input: geojson,
        copyInput: lines,
        ports: [],
        create: 'CREATE TABLE bench_copy_geojson (feature jsonb)',
        copyOptions: 'FORMAT text',
      },
    ] as const;
    // Per pass, for each dataset: Werkbank, ogr2ogr and the raw COPY, in an order that is reversed
    // in every other pass (bench-mode.ts).
    const cells = datasets.flatMap((d) => ['werkbank', 'ogr2ogr', 'copy'].map((target) => `${d.name}|${target}`));
    const runs = await alternating(cells, async (cell, pass) => {
      const [name, target] = cell.split('|');
      const d = datasets.find((x) => x.name === name)!;
      let run: PeerRun;
      if (target === 'werkbank') run = await werkbankImport(t!, client, d.input, [...d.ports]);
      else if (target === 'ogr2ogr') run = await ogrPeer(url, d.input, d.name);
      else run = await copyPeer(url, d.copyInput, d.input.rows, d.name, d.create, d.copyOptions);
      console.log(`  pass ${pass + 1}, ${name}, ${target}: ${(run.ms / 1000).toFixed(1)} s`);
      return run;
    });
    for (const d of datasets) {
      results.push({
        dataset: d.name,
        rows: d.input.rows,
        bytes: d.input.bytes,
        werkbank: runs.get(`${d.name}|werkbank`) as Array<PeerRun & { rssBefore: number }>,
        ogr2ogr: runs.get(`${d.name}|ogr2ogr`)!,
        copy: runs.get(`${d.name}|copy`)!,
      });
    }
    await t.close();
    t = undefined;

    // The same imports on the embedded database (on disk, as in production), beside the
    // PostgreSQL figures (no aim), in passes of their own.
    if (process.env.BENCH_EMBEDDED !== '0') {
      t = await startServer(undefined, { dataDir: join(dir, 'embedded') });
      const embeddedClient = await t.admin();
      const embedded = await alternating(
        datasets.map((d) => d.name),
        async (name, pass) => {
          const d = datasets.find((x) => x.name === name)!;
          const run = await werkbankImport(t!, embeddedClient, d.input, [...d.ports]);
          console.log(`  pass ${pass + 1}, ${name}, werkbank embedded (PGlite): ${(run.ms / 1000).toFixed(1)} s`);
          return run;
        },
      );
      for (const r of results) r.embedded = embedded.get(r.dataset);
    }
    console.log(`\n  measured in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    printImportReport(results);
  } finally {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

runBench('bench/import', main);
