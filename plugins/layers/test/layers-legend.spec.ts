import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import type { Layer } from '../src/common/layers-api';
import type { LegendUpload } from '../src/common/legend';
import { newLayer, layersServer } from './layers-support';
import { bytesAt, gdalPng, uploadLegend } from './legend-fixtures';

/** The legend upload (spec 001 §2.2 "legend upload with the 130–140 px transparent PNG guidance", decision 0063). */
describe('layers: legend upload', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  const good = () => gdalPng(135, 60, 4);

  it('stores a PNG, serves it at the layer’s legend address and counts the change', async () => {
    const layer = await newLayer(admin);
    const png = good();
    const up = expectStatus<LegendUpload>(await uploadLegend(admin, layer.resource_uri, png), 200);
    assert.deepEqual(
      [up.legend, up.width, up.height, up.alpha, up.size, up.warnings],
      [`${layer.resource_uri}legend.png`, 135, 60, true, png.length, []],
    );
    const stored = expectStatus<Layer>(await admin.get(layer.resource_uri), 200);
    assert.equal(stored.legend, up.legend);
    assert.equal(stored.revision, layer.revision + 1);
    assert.ok(!('legend_blob' in stored), 'the blob stays internal');
    const served = await bytesAt(admin, up.legend);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.ok(served.body.equals(png));
    const events = expectStatus<{ objects: Array<{ key: string }> }>(await admin.get(`/api/v1/event/?layer_id=${layer.id}`), 200);
    assert.ok(events.objects.some((e) => e.key === 'update'));
  });

  it('warns in the caller’s language about width and transparency, and keeps the legend', async () => {
    const layer = await newLayer(admin);
    const wide = expectStatus<LegendUpload>(await uploadLegend(admin, layer.resource_uri, gdalPng(200, 40, 3), 'de'), 200);
    assert.deepEqual(
      wide.warnings.map((w) => w.reason),
      ['legend_width', 'legend_opaque'],
    );
    assert.match(wide.warnings[0].message, /200 px breit/);
    assert.match(wide.warnings[1].message, /Transparenz/);
    const narrow = expectStatus<LegendUpload>(await uploadLegend(admin, layer.resource_uri, gdalPng(129, 40, 4)), 200);
    assert.deepEqual(
      narrow.warnings.map((w) => [w.reason, w.message]),
      [['legend_width', 'The legend is 129 px wide; 130 to 140 px fit best. It was kept.']],
    );
    const edge = expectStatus<LegendUpload>(await uploadLegend(admin, layer.resource_uri, gdalPng(140, 40, 4)), 200);
    assert.deepEqual(edge.warnings, []);
  });

  it('refuses what is not a PNG, a damaged PNG and a too large file, with a reason in both languages', async () => {
    const layer = await newLayer(admin);
    const png = good();
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    assertError(await uploadLegend(admin, layer.resource_uri, gif), 400, 'invalid_legend', /not a PNG image/);
    const de = await uploadLegend(admin, layer.resource_uri, gif, 'de');
    assertError(de, 400, 'invalid_legend', /kein PNG-Bild/);
    assert.equal(de.body.field, 'legend');
    const damaged = Buffer.from(png);
    damaged[20] ^= 0xff; // inside IHDR: its CRC no longer matches
    assertError(await uploadLegend(admin, layer.resource_uri, damaged), 400, 'invalid_legend');
    assertError(await uploadLegend(admin, layer.resource_uri, png.subarray(0, png.length - 12)), 400, 'invalid_legend');
    assertError(await uploadLegend(admin, layer.resource_uri, gdalPng(5000, 2, 4)), 400, 'invalid_legend', /at most 4096 px/);
    const big = Buffer.concat([png, Buffer.alloc(1024 * 1024)]);
    assertError(await uploadLegend(admin, layer.resource_uri, big), 413, 'file_too_large');
    const stored = expectStatus<Layer>(await admin.get(layer.resource_uri), 200);
    assert.deepEqual([stored.legend, stored.revision], ['', layer.revision], 'a refused file changes nothing');
  });

  it('lets only writers upload and remove; readers and, for public layers, everyone read it', async () => {
    const bob = await t.user();
    const layer = await newLayer(admin);
    expectStatus(await uploadLegend(admin, layer.resource_uri, good()), 200);
    const address = `${layer.resource_uri}legend.png`;
    assertError(await uploadLegend(bob.client, layer.resource_uri, good()), 404, 'not_found');
    assert.equal((await bytesAt(bob.client, address)).status, 404);
    assert.equal((await bytesAt(t.client(), address)).status, 401);
    expectStatus(
      await admin.patch(layer.resource_uri, { permissions: [{ user: `/api/v1/user/${bob.id}/`, perms: ['read'] }] }),
      200,
    );
    assert.equal((await bytesAt(bob.client, address)).status, 200);
    assertError(await uploadLegend(bob.client, layer.resource_uri, good()), 403, 'permission_denied');
    assertError(await bob.client.delete(`${layer.resource_uri}legend/`), 403, 'permission_denied');
    expectStatus(await admin.patch(layer.resource_uri, { public: true }), 200);
    const anonymous = await bytesAt(t.client(), address);
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.headers.get('content-type'), 'image/png');
    assertError(await t.client().post(`${layer.resource_uri}legend/`, {}), 401, 'not_authenticated');
  });

  it('accepts only an upload, removal, or another readable layer’s legend as the field’s value', async () => {
    const a = await newLayer(admin);
    expectStatus(await uploadLegend(admin, a.resource_uri, good()), 200);
    const legend = `${a.resource_uri}legend.png`;
    assertError(await admin.post('/api/v1/layer/', { name: 'x', legend: 'https://example.org/l.png' }), 400, 'invalid_field');
    assertError(
      await admin.post('/api/v1/layer/', { name: 'x', legend: '/api/v1/layer/999999/legend.png' }),
      400,
      'invalid_field',
    );
    const clone = expectStatus<Layer>(await admin.post('/api/v1/layer/', { name: 'copy', legend }), 201);
    assert.equal(clone.legend, `${clone.resource_uri}legend.png`, 'a clone shares the blob at its own address');
    assert.ok((await bytesAt(admin, clone.legend)).body.equals((await bytesAt(admin, legend)).body));
    const same = expectStatus<Layer>(await admin.patch(a.resource_uri, { legend, name: 'renamed' }), 200);
    assert.equal(same.legend, legend, 'sending the address back keeps the legend');
    const removed = expectStatus<Layer>(await admin.patch(a.resource_uri, { legend: '' }), 200);
    assert.equal(removed.legend, '');
    assert.equal((await bytesAt(admin, legend)).status, 404);
    assert.equal((await bytesAt(admin, clone.legend)).status, 200, 'the clone keeps its legend');
  });

  it('releases a replaced, removed or deleted legend to the blob sweep; a shared one stays', async () => {
    const db = t.server.db.dataSource;
    const age = () => db.query(`UPDATE werkbank_blob_candidate SET since = now() - interval '2 hours'`);
    const stat = (hash: string) => t.server.blobs.stat(hash);
    const layer = await newLayer(admin);
    const first = gdalPng(131, 20, 4);
    const second = gdalPng(132, 20, 4);
    const hashOf = async (id: number) =>
      String(
        ((await db.query(`SELECT legend_blob FROM layers_layer WHERE id = $1`, [id])) as { legend_blob: string }[])[0]
          .legend_blob,
      );
    expectStatus(await uploadLegend(admin, layer.resource_uri, first), 200);
    const h1 = await hashOf(layer.id);
    await age();
    await t.server.blobSweep.sweep();
    assert.ok(await stat(h1), 'a legend in use is kept');
    expectStatus(await uploadLegend(admin, layer.resource_uri, second), 200);
    const h2 = await hashOf(layer.id);
    await age();
    await t.server.blobSweep.sweep();
    assert.equal(await stat(h1), undefined, 'the replaced legend is swept');
    const clone = expectStatus<Layer>(
      await admin.post('/api/v1/layer/', { name: 'c', legend: `${layer.resource_uri}legend.png` }),
      201,
    );
    expectStatus(await admin.delete(`${layer.resource_uri}legend/`), 204);
    await age();
    await t.server.blobSweep.sweep();
    assert.ok(await stat(h2), 'the clone still uses it');
    expectStatus(await admin.delete(clone.resource_uri), 204);
    await age();
    await t.server.blobSweep.sweep();
    assert.equal(await stat(h2), undefined, 'deleting the last layer releases it');
  });
});
