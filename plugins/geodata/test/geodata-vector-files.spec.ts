import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  get,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  type Obj,
  type User,
} from '@werkbank/plugin-switchboards/testing';
import { bytesOf, frameUpload } from '@werkbank/plugin-switchboards/testing';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/vector');

/** The vector file formats in a running switchboard: uploaded archives in, a downloadable GeoPackage out. */
describe('geodata: zipped Shapefile → features → GeoPackage file', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: User;
  let dir: string;

  before(async () => {
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] });
    alice = await t.user();
    dir = mkdtempSync(path.join(tmpdir(), 'vector-api-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  /** upload → shapefile.import → features → geopackage.export → file. */
  async function converting(fixture: string) {
    const sb: Obj = await newSwitchboard(alice.client);
    const upload = await addFrame(alice.client, sb, 'file');
    expectStatus(await frameUpload(alice.client, upload.id, fixture, readFileSync(path.join(FIXTURES, fixture))), 201);
    const shp = await addNode(alice.client, sb, 'shapefile.import', []);
    const features = await addFrame(alice.client, sb, 'feature');
    const gpkg = await addNode(alice.client, sb, 'geopackage.export', [{ name: 'layer', default_value: { value: 'orte' } }]);
    const out = await addFrame(alice.client, sb, 'file');
    await link(alice.client, shp, 'file', upload, true);
    await link(alice.client, shp, 'features', features, false);
    await link(alice.client, gpkg, 'features', features, true);
    await link(alice.client, gpkg, 'file', out, false);
    return { shp, features, out, exec: await runAndWait(t, alice.client, sb) };
  }

  it('imports the uploaded archive in WGS 84 and stores a GeoPackage GDAL reads, downloadable from its frame', async () => {
    const { features, out, exec } = await converting('orte-shp.zip');
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    const items = (await contentOf(alice.client, features)) as Array<{ feature: { properties: Record<string, unknown> } }>;
    assert.deepEqual(
      items.map((i) => i.feature.properties.stadt),
      ['Berlin', 'Hamburg', 'Düsseldorf'],
    );
    const [file] = (await contentOf(alice.client, out)) as Obj[];
    assert.equal(file.value, 'features.gpkg');
    const got = await bytesOf(alice.client, String(file.download_url));
    assert.equal(got.status, 200);
    const target = path.join(dir, 'orte.gpkg');
    writeFileSync(target, got.body);
    const info = execFileSync('ogrinfo', ['-so', target, 'orte'], { encoding: 'utf8' });
    assert.match(info, /Feature Count: 3/);
    assert.match(info, /Extent: \(6\.779720, 51\.222500\) - \(13\.377704, 53\.550556\)/);
  });

  it('fails the import of a zip-slip upload, naming the path that would leave its folder', async () => {
    const { shp, exec } = await converting('zip-slip-shp.zip');
    assert.equal(exec.status, 'failure');
    const failed = await get(alice.client, shp.resource_uri);
    assert.match(failed.runinfo.exception, /\.\.\/orte\.shp/);
  });
});
