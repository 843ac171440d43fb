import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  bytesOf,
  contentOf,
  expectStatus,
  frameUpload,
  GEODATA_PLUGINS,
  link,
  newSwitchboard,
  runAndWait,
  type Client,
  type Obj,
} from './geodata-test-support';

/** Columns in an order jsonb would change (it sorts keys by length, then alphabetically). */
const COLUMNS = ['name', 'einwohner', 'flaeche_km2', 'a5'];

/**
 * Key and column order survive (issue 14 item 5, decision 0036): through frames, depots and
 * exports, on files ogr2ogr wrote.
 */
describe('geodata: columns keep the order the data came in (issue 14 item 5)', function () {
  this.timeout(180_000);
  let t: TestServer;
  let c: Client;
  let dir: string;
  let csv: Buffer;
  let gpkg: Buffer;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'order-'));
    const places = path.join(dir, 'orte.geojson');
    const feature = (name: string, x: number, y: number, einwohner: number, flaeche_km2: number, a5: string) => ({
      type: 'Feature',
      properties: { name, einwohner, flaeche_km2, a5, x, y },
      geometry: { type: 'Point', coordinates: [x, y] },
    });
    writeFileSync(
      places,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [feature('Zürich', 8.54, 47.37, 421878, 87.88, 'ZH'), feature('Bern', 7.45, 46.95, 134794, 51.62, 'BE')],
      }),
    );
    execFileSync('ogr2ogr', [
      '-f',
      'CSV',
      path.join(dir, 'orte.csv'),
      places,
      '-sql',
      'SELECT name, x, y FROM orte',
      '-lco',
      'SEPARATOR=SEMICOLON',
    ]);
    csv = readFileSync(path.join(dir, 'orte.csv'));
    assert.match(csv.toString('utf8'), /^"?name"?;"?x"?;"?y"?\r?\n/);
    const sql = `SELECT ${COLUMNS.join(', ')} FROM orte`;
    execFileSync('ogr2ogr', ['-f', 'GPKG', path.join(dir, 'orte.gpkg'), places, '-sql', sql, '-nln', 'orte']);
    gpkg = readFileSync(path.join(dir, 'orte.gpkg'));
    t = await startTestServer({ plugins: GEODATA_PLUGINS });
    c = (await t.user()).client;
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  async function uploaded(sb: Obj, name: string, bytes: Buffer): Promise<Obj> {
    const file = await addFrame(c, sb, 'file');
    await frameUpload(c, file, name, bytes);
    return file;
  }

  it('exports a CSV with the header name;x;y as name;x;y, and its rows keep that order in the frame', async () => {
    const sb = await newSwitchboard(c);
    const file = await uploaded(sb, 'orte.csv', csv);
    const imp = await addNode(c, sb, 'csv.import');
    const rows = await addFrame(c, sb, 'row');
    const exp = await addNode(c, sb, 'csv.export', { decimal: '.', encoding: 'utf-8' });
    const text = await addFrame(c, sb, 'string');
    await link(c, imp, 'file', file, true);
    await link(c, imp, 'rows', rows, false);
    await link(c, exp, 'rows', rows, true);
    await link(c, exp, 'csv', text, false);
    const exec = await runAndWait(t, c, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const [first] = await contentOf(c, rows);
    assert.deepEqual(Object.keys(first.value), ['name', 'x', 'y']);
    const [out] = await contentOf(c, text);
    assert.equal(String(out.value).split(/\r?\n/)[0], 'name;x;y');
  });

  it('keeps the GeoPackage’s column order in frames, in a depot and in the GeoPackage exported from it', async () => {
    const depot = expectStatus<Obj>(await c.post('/api/v1/depot/', { name: 'Orte', content_type: 'feature' }), 201);
    const sb = await newSwitchboard(c);
    const file = await uploaded(sb, 'orte.gpkg', gpkg);
    const imp = await addNode(c, sb, 'geopackage.import');
    const features = await addFrame(c, sb, 'feature');
    const store = await addNode(c, sb, 'depot.store');
    const moment = await addFrame(c, sb, 'int');
    await link(c, imp, 'file', file, true);
    await link(c, imp, 'features', features, false);
    await link(c, store, 'datums', features, true);
    await link(c, store, 'depot', await addFrame(c, sb, 'depot', [{ value: depot.resource_uri }]), true);
    await link(c, store, 'moment', moment, false);
    const exec = await runAndWait(t, c, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const [item] = await contentOf(c, features);
    assert.deepEqual(Object.keys(item.feature.properties), COLUMNS);

    const [written] = await contentOf(c, moment);
    const datums = expectStatus<{ objects: Obj[] }>(
      await c.get(`/api/v1/datum/by-depot/${depot.id}/?moment=${written.value}&limit=10`),
      200,
    ).objects;
    assert.deepEqual(Object.keys(datums[0].feature.properties), COLUMNS);

    const back = await newSwitchboard(c);
    const read = await addNode(c, back, 'depot.read', { moment: written.value });
    const stored = await addFrame(c, back, 'feature');
    const exp = await addNode(c, back, 'geopackage.export', { layer: 'orte' });
    const out = await addFrame(c, back, 'file');
    await link(c, read, 'depot', await addFrame(c, back, 'depot', [{ value: depot.resource_uri }]), true);
    await link(c, read, 'datums', stored, false);
    await link(c, exp, 'features', stored, true);
    await link(c, exp, 'file', out, false);
    const exec2 = await runAndWait(t, c, back);
    assert.equal(exec2.status, 'success', JSON.stringify(exec2));
    const [exported] = await contentOf(c, out);
    const target = path.join(dir, 'export.gpkg');
    writeFileSync(target, await bytesOf(c, String(exported.download_url)));
    const info = execFileSync('ogrinfo', ['-so', target, 'orte'], { encoding: 'utf8' });
    const fields = [...info.matchAll(/^(\w+): (?:String|Integer|Integer64|Real)/gm)].map((m) => m[1]);
    assert.deepEqual(fields, COLUMNS);
  });
});
