import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  link,
  newSwitchboard,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  get,
  type Obj,
  type User,
} from '@werkbank/plugin-switchboards/testing';
import { frameUpload } from '@werkbank/plugin-switchboards/testing';

/** geojson.import on files uploaded into frames, read through the Switchboards' FileAccess. */
describe('geodata: geojson.import reads uploaded GeoJSON files into a frame of features', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: User;

  before(async () => {
    t = await startTestServer({ plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] });
    alice = await t.user();
  });
  after(() => t?.close());

  /** A switchboard: the uploaded file → geojson.import → a frame of features. */
  async function importing(name: string, text: string) {
    const sb: Obj = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'file');
    expectStatus(await frameUpload(alice.client, frame.id, name, Buffer.from(text)), 201);
    const node = await addNode(alice.client, sb, 'geojson.import', []);
    const features = await addFrame(alice.client, sb, 'feature');
    await link(alice.client, node, 'file', frame, true);
    await link(alice.client, node, 'features', features, false);
    return { node, features, exec: await runAndWait(t, alice.client, sb) };
  }

  it('imports the features of an uploaded FeatureCollection', async () => {
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [13.74, 51.05] }, properties: { ort: 'Dresden' } };
    const { features, exec } = await importing(
      'orte.geojson',
      JSON.stringify({ type: 'FeatureCollection', features: [feature] }),
    );
    assert.equal(exec.status, 'success', JSON.stringify(exec));
    assert.deepEqual(await contentOf(alice.client, features), [{ feature }]);
  });

  it('fails the node with a message naming the file, line and column of broken JSON', async () => {
    const { node, exec } = await importing('kaputt.geojson', '{"type": "FeatureCollection",\n"features": [}\n');
    assert.equal(exec.status, 'failure');
    const failed = await get(alice.client, node.resource_uri);
    assert.match(failed.runinfo.exception, /kaputt\.geojson, line 2, column 14/);
  });
});
