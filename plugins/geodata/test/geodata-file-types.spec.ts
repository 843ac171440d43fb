import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expectStatus, startTestServer, type TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  frameUpload,
  get,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';

type Client = Parameters<typeof newSwitchboard>[0];

/** A switchboard of: file frame → `func` → a frame of `outType` on `outPort`. */
async function importing(
  c: Client,
  func: string,
  outPort: string,
  outType: string,
  ports: Array<{ name: string; default_value: unknown }> = [],
) {
  const sb = await newSwitchboard(c);
  const file = await addFrame(c, sb, 'file');
  const node = await addNode(c, sb, func, ports);
  const out = await addFrame(c, sb, outType);
  await link(c, node, 'file', file, true);
  await link(c, node, outPort, out, false);
  return { sb, file, node, out };
}

const upload = async (c: Client, frame: Obj, name: string, bytes: Buffer) =>
  expectStatus(await frameUpload(c, frame.id, name, bytes), 201);

/** GML with its .xsd and a windows-1252 CSV, written by GDAL and iconv, uploaded into frames and imported. */
describe('geodata: files written by GDAL and iconv, uploaded and imported on a switchboard', function () {
  this.timeout(60_000);
  let t: TestServer;
  let dir: string;

  before(async () => {
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] });
    dir = mkdtempSync(path.join(tmpdir(), 'geodata-file-types-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('imports a GML uploaded with the .xsd ogr2ogr wrote next to it: "056" and "7" of one column both text', async () => {
    const { client } = await t.user();
    writeFileSync(
      path.join(dir, 'bezirke.csv'),
      'WKT,name,code,einwohner\n"POINT(8.54 47.37)",Zürich,056,421878\n"POINT(6.14 46.2)",Genf,7,203856\n',
    );
    writeFileSync(path.join(dir, 'bezirke.csvt'), '"WKT","String","String","Integer"\n');
    const gml = path.join(dir, 'bezirke.gml');
    const csv = path.join(dir, 'bezirke.csv');
    execFileSync('ogr2ogr', [
      '-f',
      'GML',
      gml,
      csv,
      '-oo',
      'GEOM_POSSIBLE_NAMES=WKT',
      '-oo',
      'KEEP_GEOM_COLUMNS=NO',
      '-a_srs',
      'EPSG:4326',
    ]);
    const { sb, file, out } = await importing(client, 'gml.import', 'features', 'feature');
    await upload(client, file, 'bezirke.gml', readFileSync(gml));
    await upload(client, file, 'bezirke.xsd', readFileSync(path.join(dir, 'bezirke.xsd')));
    const exec = await runAndWait(t, client, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const features = (await contentOf(client, out)) as Array<{ feature: { properties: Record<string, unknown> } }>;
    assert.deepEqual(
      features.map((f) => [f.feature.properties.code, f.feature.properties.einwohner]),
      [
        ['056', 421878],
        ['7', 203856],
      ],
    );
  });

  it('reads a windows-1252 CSV with decimal commas as windows-1252 and tells a German user in the run log', async () => {
    const { client } = await t.user();
    expectStatus(await client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
    const csv = execFileSync('iconv', ['-f', 'UTF-8', '-t', 'WINDOWS-1252'], {
      input: 'name;flaeche_km2\nZürich;87,88\nKöln;405,01\n',
    });
    const decimal = [{ name: 'decimal', default_value: { value: ',' } }];
    const { sb, file, node, out } = await importing(client, 'csv.import', 'rows', 'row', decimal);
    await upload(client, file, 'gemeinden.csv', csv);
    const exec = await runAndWait(t, client, sb);
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    assert.deepEqual(
      ((await contentOf(client, out)) as Array<{ value: unknown }>).map((r) => r.value),
      [
        { name: 'Zürich', flaeche_km2: 87.88 },
        { name: 'Köln', flaeche_km2: 405.01 },
      ],
    );
    const run = await get(client, (await get(client, node.resource_uri)).last_run);
    assert.match(run.log, /gemeinden\.csv/);
    assert.match(run.log, /Die Datei ist kein gültiges UTF-8 \(erstmals in Zeile 2\); sie wurde als windows-1252 gelesen/);
  });
});
