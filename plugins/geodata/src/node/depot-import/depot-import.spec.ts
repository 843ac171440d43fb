import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ApiError, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { depotImportFile } from './depot-import';
import { BATCH } from './file-batches';
import { type DepotAccess } from '@werkbank/plugin-magazine/api';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** A FileAccess over in-memory texts keyed by name; it records which files were read and keeps the streams it opened. */
function fakeFiles(texts: Record<string, string>) {
  const read: string[] = [];
  const streams: Readable[] = [];
  const files: FileAccess = {
    open: async (_user, file) => {
      const name = String(file.value);
      if (!(name in texts)) throw ApiError.notFound();
      const stream = new Readable({
        read() {
          read.push(name);
          this.push(Buffer.from(texts[name]));
          this.push(null);
        },
      });
      streams.push(stream);
      // A file stored without a name (`~` here) is named by its item.
      return { stream, size: texts[name].length, mime_type: 'text/plain', name: name.startsWith('~') ? '' : name };
    },
  };
  return { files, read, streams };
}

/** A DepotAccess whose writeStream pulls every batch like the Magazine does (or refuses first). */
function fakeDepots(refuse?: ApiError) {
  const batches: FrameItems[] = [];
  const calls: unknown[][] = [];
  const depots: DepotAccess = {
    read: async () => assert.fail('not used'),
    write: async () => assert.fail('not used'),
    datum: async () => assert.fail('not used'),
    saveDatum: async () => assert.fail('not used'),
    datumIn: async () => assert.fail('not used'),
    intersecting: async () => assert.fail('not used'),
    windowReader: async () => assert.fail('not used'),
    readStream: async () => assert.fail('not used'),
    count: async () => assert.fail('not used'),
    writeStream: async (user, depot, source, options) => {
      calls.push([user.id, depot, options]);
      if (refuse) throw refuse;
      let count = 0;
      for await (const batch of source) {
        batches.push(batch);
        count += batch.length;
      }
      return { depot_id: 3, moment_id: 31, count };
    },
  };
  return { depots, batches, calls };
}

const one = (value: unknown): FrameItems => [{ value }];
const fileItem = (name: string): FrameItems => [{ value: name, size: 1, mime_type: 'text/plain', download_url: `/f/${name}` }];
const features = (batches: FrameItems[]) => batches.flat().map((b) => b.feature as Record<string, any>);

function csvText(rows: number, broken?: number): string {
  const lines = ['x;y;name'];
  for (let i = 0; i < rows; i++) lines.push(i === broken ? `${i};${i};a;extra` : `${i};${i + 0.5};p${i}`);
  return lines.join('\n');
}

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code, e.message);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

async function run(texts: Record<string, string>, inputs: FunctionInputs, refuse?: ApiError) {
  const f = fakeFiles(texts);
  const d = fakeDepots(refuse);
  const ctx = fakeRunContext();
  const out = depotImportFile(f.files, d.depots).run({ depot: one('/api/v1/depot/3/'), ...inputs }, ctx);
  return { out, ctx, ...f, ...d };
}

describe('depot.import_file', () => {
  it('streams the features of a CSV into the depot in batches, as the running user and node run', async () => {
    const rows = BATCH * 2 + 7;
    const r = await run({ 'points.csv': csvText(rows) }, { file: fileItem('points.csv'), mode: one('append') });
    const out = await r.out;
    assert.deepEqual(out, { moment: [{ value: 31 }], count: [{ value: rows }] });
    assert.deepEqual(
      r.batches.map((b) => b.length),
      [BATCH, BATCH, 7],
    );
    assert.deepEqual(r.calls, [[r.ctx.user.id, '/api/v1/depot/3/', { nodeRunId: 42, mode: 'append', lang: 'en' }]]);
    const all = features(r.batches);
    assert.deepEqual(all[BATCH + 1], {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [BATCH + 1, BATCH + 1.5] },
      properties: { name: `p${BATCH + 1}` },
    });
    assert.deepEqual(r.ctx.writes, [{ depot_id: 3, moment_id: 31 }]);
    assert.equal(r.ctx.progresses.at(-1), 1);
    // The node's run log says what was read and what was written.
    const size = csvText(rows).length;
    assert.deepEqual(r.ctx.logs, [`points.csv: ${size} bytes`, `wrote ${rows} features to depot 3 as moment 31`]);
  });

  it('reads a CSV geometry from a WKT column and reprojects with the crs setting', async () => {
    const text = 'id;geom\n1;POINT (500000 5500000)\n2;';
    const r = await run({ 'a.csv': text }, { file: fileItem('a.csv'), wkt: one('geom'), crs: one('EPSG:25832') });
    await r.out;
    const [a, b] = features(r.batches);
    assert.deepEqual(a.properties, { id: 1 });
    assert.ok(Math.abs(a.geometry.coordinates[0] - 9) < 1e-6 && Math.abs(a.geometry.coordinates[1] - 49.65254) < 1e-5);
    assert.equal(b.geometry, null);
    assert.ok(r.ctx.logs.includes('a.csv: reprojecting from EPSG:25832 to EPSG:4326'), r.ctx.logs.join('\n'));
    assert.ok(!r.ctx.logs.some((l) => l.includes('auto_transform')), r.ctx.logs.join('\n'));
  });

  it('takes blank wkt and crs settings as not given, and trims the ones given', async () => {
    const text = 'x;y\n500000;5500000';
    const blank = await run({ 'a.csv': text }, { file: fileItem('a.csv'), wkt: one('  '), crs: one('  ') });
    await blank.out;
    assert.deepEqual(features(blank.batches)[0].geometry.coordinates, [500000, 5500000]);
    const padded = await run({ 'a.csv': text }, { file: fileItem('a.csv'), crs: one(' EPSG:25832 ') });
    await padded.out;
    assert.ok(Math.abs(features(padded.batches)[0].geometry.coordinates[0] - 9) < 1e-6);
  });

  it('takes the coordinate columns named by x and y', async () => {
    const r = await run({ 'a.csv': 'lon;lat;x\n7;50;a' }, { file: fileItem('a.csv'), x: one('lon'), y: one('lat') });
    await r.out;
    assert.deepEqual(features(r.batches)[0], {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [7, 50] },
      properties: { x: 'a' },
    });
  });

  it('names a file item without a value that cannot be opened by its place alone', async () => {
    const r = await run({}, { file: [{ value: null }] });
    await rejectsWith(r.out, 'file_unreadable', { item: 'file[0]', name: '' });
  });

  it('reprojects with auto_transform off as well, since depots store WGS 84, and says so in the log', async () => {
    const r = await run(
      { 'a.csv': 'x;y\n500000;5500000' },
      { file: fileItem('a.csv'), crs: one('EPSG:25832'), auto_transform: one(false) },
    );
    await r.out;
    assert.ok(Math.abs(features(r.batches)[0].geometry.coordinates[0] - 9) < 1e-6);
    assert.deepEqual(r.ctx.logs.slice(1, 3), [
      'a.csv: depots store EPSG:4326, auto_transform is ignored',
      'a.csv: reprojecting from EPSG:25832 to EPSG:4326',
    ]);
  });

  it('keeps GeoJSON declared in WGS 84 as it is, without reprojecting', async () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      crs: { type: 'name', properties: { name: 'EPSG:4326' } },
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [9.123456789, 49.1] }, properties: {} }],
    });
    const r = await run({ 'a.geojson': text }, { file: fileItem('a.geojson') });
    await r.out;
    assert.deepEqual(features(r.batches)[0].geometry.coordinates, [9.123456789, 49.1]);
    assert.ok(!r.ctx.logs.some((l) => l.includes('reprojecting')), r.ctx.logs.join('\n'));
  });

  it('names the row of a bad coordinate in a later batch by its index in the whole file', async () => {
    const bad = BATCH + 5;
    const rows = ['x;y', ...Array.from({ length: BATCH * 2 }, (_, i) => (i === bad ? 'abc;1' : `${i % 90};1`))];
    const r = await run({ 'r.csv': rows.join('\n') }, { file: fileItem('r.csv') });
    await rejectsWith(r.out, 'not_a_coordinate', { source: 'r.csv', row: bad, column: 'x', value: 'abc' });
  });

  it('names the row that cannot be reprojected in a later batch by its index in the whole file', async () => {
    const bad = BATCH + 5;
    const rows = ['x;y', ...Array.from({ length: BATCH * 2 }, (_, i) => (i === bad ? '500;1' : `${i % 90};1`))];
    const r = await run({ 'r.csv': rows.join('\n') }, { file: fileItem('r.csv'), crs: one('EPSG:4258') });
    await rejectsWith(r.out, 'out_of_range', { source: 'r.csv', index: bad });
  });

  it('streams GeoJSON features and reprojects them from the crs member', async () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } },
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [500000, 5500000] }, properties: { n: 1 } }],
    });
    const r = await run({ 'a.geojson': text }, { file: fileItem('a.geojson') });
    await r.out;
    const [a] = features(r.batches);
    assert.deepEqual(a.properties, { n: 1 });
    assert.ok(Math.abs(a.geometry.coordinates[0] - 9) < 1e-6);
  });

  it('fails on a broken row in a later batch, naming the file and line, and stops reading', async () => {
    const broken = BATCH + 10;
    const r = await run({ 'b.csv': csvText(BATCH * 3, broken) }, { file: fileItem('b.csv') });
    await rejectsWith(r.out, 'column_count', { source: 'b.csv', line: broken + 2, expected: 3, found: 4 });
    // The writer saw the first batch only; it rolls back on the error (the Magazine's transaction).
    assert.deepEqual(
      r.batches.map((b) => b.length),
      [BATCH],
    );
  });

  it('names the feature of a broken GeoJSON feature by its index in the whole file', async () => {
    const good = { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: {} };
    const list = Array.from({ length: BATCH + 3 }, () => good);
    list[BATCH + 1] = { type: 'Feature', geometry: { type: 'Point', coordinates: ['x', 2] }, properties: {} } as never;
    const r = await run(
      { 'c.json': JSON.stringify({ type: 'FeatureCollection', features: list }) },
      { file: fileItem('c.json') },
    );
    await assert.rejects(r.out, (e: ApiError) => {
      assert.equal(e.params.source, 'c.json');
      assert.equal(e.params.index, BATCH + 1, JSON.stringify(e.params));
      return true;
    });
  });

  it('reads no file when the depot refuses the write', async () => {
    const refused = ApiError.forbidden('permission_denied', 'errors.permission_denied');
    const r = await run({ 'points.csv': csvText(3) }, { file: fileItem('points.csv') }, refused);
    await assert.rejects(r.out, (e: ApiError) => e === refused);
    assert.deepEqual(r.read, []);
    // The files opened for it are closed again.
    assert.deepEqual(
      r.streams.map((s) => s.destroyed),
      [true],
    );
  });

  it('takes a depot by its id as well, and refuses a blank or other depot item', async () => {
    const byId = await run({ 'a.csv': csvText(1) }, { file: fileItem('a.csv'), depot: one(3) });
    await byId.out;
    assert.equal(byId.calls[0][1], 3);
    for (const value of ['  ', { id: 3 }]) {
      const r = await run({ 'a.csv': csvText(1) }, { file: fileItem('a.csv'), depot: one(value) });
      await rejectsWith(r.out, 'not_a_depot', { item: 'depot[0]' });
      assert.deepEqual(r.calls, []);
    }
  });

  it('refuses a file that cannot be opened, naming its item, and closes the ones opened before', async () => {
    const file = [...fileItem('a.csv'), ...fileItem('gone.csv')];
    const r = await run({ 'a.csv': csvText(1) }, { file });
    await rejectsWith(r.out, 'file_unreadable', { item: 'file[1]', name: 'gone.csv' });
    assert.deepEqual(r.calls, []);
    assert.deepEqual(
      r.streams.map((s) => s.destroyed),
      [true],
    );
  });

  it('names a file without a name by its item', async () => {
    const r = await run({ '~1': 'x' }, { file: fileItem('~1') });
    await rejectsWith(r.out, 'unknown_format', { source: 'file[0]' });
    const csv = await run({ '~1': csvText(2) }, { file: fileItem('~1'), format: one('csv') });
    await csv.out;
    assert.equal(csv.ctx.logs[0], `file[0]: ${csvText(2).length} bytes`);
  });

  it('refuses wkt and crs settings that are not texts', async () => {
    for (const port of ['wkt', 'crs']) {
      const r = await run({ 'a.csv': csvText(1) }, { file: fileItem('a.csv'), [port]: one(5) });
      await rejectsWith(r.out, 'invalid_parameter', { port, value: '5' });
    }
  });

  it('takes a crs setting over a crs member that comes after the features, and imports an empty collection with a crs member', async () => {
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [500000, 5500000] }, properties: {} };
    const late = JSON.stringify({
      type: 'FeatureCollection',
      features: Array.from({ length: 3 }, () => feature),
      crs: { type: 'name', properties: { name: 'EPSG:31467' } },
    });
    const r = await run({ 'late.geojson': late }, { file: fileItem('late.geojson'), crs: one('EPSG:25832') });
    assert.deepEqual(await r.out, { moment: [{ value: 31 }], count: [{ value: 3 }] });
    assert.ok(Math.abs(features(r.batches)[0].geometry.coordinates[0] - 9) < 1e-6);
    const empty = JSON.stringify({
      type: 'FeatureCollection',
      features: [],
      crs: { type: 'name', properties: { name: 'EPSG:25832' } },
    });
    const none = await run({ 'empty.geojson': empty }, { file: fileItem('empty.geojson') });
    assert.deepEqual(await none.out, { moment: [{ value: 31 }], count: [{ value: 0 }] });
  });

  it('refuses a file whose format its name does not tell, before writing', async () => {
    const r = await run({ 'data.bin': 'x' }, { file: fileItem('data.bin') });
    await rejectsWith(r.out, 'unknown_format', { source: 'data.bin' });
    assert.deepEqual(r.calls, []);
  });

  it('refuses a crs member that comes after features it would have changed', async () => {
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [500000, 5500000] }, properties: {} };
    const features = Array.from({ length: BATCH + 1 }, () => feature);
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features,
      crs: { type: 'name', properties: { name: 'EPSG:25832' } },
    });
    const r = await run({ 'late.geojson': text }, { file: fileItem('late.geojson') });
    await rejectsWith(r.out, 'crs_after_features', { source: 'late.geojson', crs: 'EPSG:25832' });
  });

  it('refuses a wrong mode or format and a missing file', async () => {
    await rejectsWith((await run({}, { file: fileItem('a.csv'), mode: one('merge') })).out, 'invalid_choice', { port: 'mode' });
    await rejectsWith((await run({}, { file: fileItem('a.csv'), format: one('gml') })).out, 'invalid_choice', { port: 'format' });
    await rejectsWith((await run({}, {})).out, 'no_file');
    // One depot exactly, with a message of its own (it named a message the tabular functions have not).
    for (const depot of [[], [...one('/api/v1/depot/3/'), ...one('/api/v1/depot/4/')]]) {
      const refused = (await run({ 'a.csv': csvText(1) }, { file: fileItem('a.csv'), depot })).out;
      await assert.rejects(refused, (e: ApiError) => {
        assert.deepEqual(
          [e.code, e.key, e.params],
          ['parameter_single', 'geodata-depot-import:errors.parameter_single', { port: 'depot', count: depot.length }],
        );
        return true;
      });
    }
  });
});
