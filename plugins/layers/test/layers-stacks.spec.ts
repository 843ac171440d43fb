import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { addDatum, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '../src/common/layers-api';
import { ZOOM_LAYER_TYPES } from '../src/common/layer-types';
import { LAYERS, newLayer, layersServer } from './layers-support';

/**
 * Metalayers that would contain themselves, and the zoom settings of spec 001 §3.1/§9 (decision
 * 0063). Run on PGlite and, with DATABASE_URL, on PostgreSQL.
 */
describe('layers: metalayer cycles and zoom settings', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  /** A depot of layer datums naming `layers`. */
  async function layerDepot(...layers: Layer[]): Promise<Depot> {
    const depot = await newDepot(admin, 'layer');
    for (const l of layers) await addDatum(admin, depot, { value: l.resource_uri });
    return depot;
  }

  describe('metalayer cycles', () => {
    it('stacks layers in a metalayer, also metalayers in metalayers', async () => {
      const a = await newLayer(admin);
      const inner = await newLayer(admin, { type: 'metalayer', layerpiles: [(await layerDepot(a)).resource_uri] });
      const outer = await newLayer(admin, { type: 'metalayer', layerpiles: [(await layerDepot(inner, a)).resource_uri] });
      assert.equal(outer.layerpiles.length, 1);
    });

    it('refuses a metalayer whose pile names the layer itself, with the reason in both languages', async () => {
      const meta = await newLayer(admin, { type: 'metalayer' });
      const self = await layerDepot(meta);
      const res = await admin.patch(meta.resource_uri, { layerpiles: [self.resource_uri] });
      assertError(res, 400, 'layer_cycle', new RegExp(`“${meta.name}” would contain itself.*“${self.name}”`));
      assert.equal(res.body.field, 'layerpiles');
      const de = await admin.patch(
        meta.resource_uri,
        { layerpiles: [self.resource_uri] },
        { headers: { 'Accept-Language': 'de' } },
      );
      assertError(de, 400, 'layer_cycle', /würde sich selbst enthalten/);
      const stored = expectStatus<Layer>(await admin.get(meta.resource_uri), 200);
      assert.deepEqual([stored.layerpiles, stored.revision], [[], meta.revision], 'nothing of the refused write is kept');
    });

    it('refuses a loop through other metalayers, also when another user closes it', async () => {
      const m1 = await newLayer(admin, { type: 'metalayer' });
      const m2 = await newLayer(admin, { type: 'metalayer', layerpiles: [(await layerDepot(m1)).resource_uri] });
      const m3 = await newLayer(admin, { type: 'metalayer', layerpiles: [(await layerDepot(m2)).resource_uri] });
      const back = await layerDepot(m3);
      assertError(await admin.patch(m1.resource_uri, { layerpiles: [back.resource_uri] }), 400, 'layer_cycle');
      // Alice may change m1 and read the depot, but not the layers in between: the loop is still found.
      const alice = await t.user();
      const grant = { permissions: [{ user: `/api/v1/user/${alice.id}/`, perms: ['read', 'write'] }] };
      expectStatus(await admin.patch(m1.resource_uri, grant), 200);
      expectStatus(await admin.patch(back.resource_uri, grant), 200);
      assertError(await alice.client.patch(m1.resource_uri, { layerpiles: [back.resource_uri] }), 400, 'layer_cycle');
      // A new metalayer stacking the loop's depot does not contain itself.
      expectStatus(await admin.post(LAYERS, { name: 'viewer', type: 'metalayer', layerpiles: [back.resource_uri] }), 201);
    });

    it('refuses the second of two metalayers that would stack each other', async () => {
      const layer = await newLayer(admin, { type: 'metalayer' });
      const depot = await layerDepot(layer);
      const other = await newLayer(admin, { type: 'metalayer', layerpiles: [depot.resource_uri] });
      // `other` stacks `layer`; making `layer` stack `other` closes the loop.
      const res = await admin.patch(layer.resource_uri, { layerpiles: [(await layerDepot(other)).resource_uri] });
      assertError(res, 400, 'layer_cycle');
    });
  });

  describe('zoom settings', () => {
    const bad = async (body: Record<string, unknown>, field: string, at?: Layer) => {
      const res = at ? await admin.patch(at.resource_uri, body) : await admin.post(LAYERS, { name: 'bad', ...body });
      assertError(res, 400, 'invalid_field');
      assert.equal(res.body.field, field);
      return res;
    };

    it('refuses zoom levels outside 0–24 and non-integers, naming the key', async () => {
      for (const key of ['min_zoom', 'max_zoom', 'min_load_level', 'max_load_level']) {
        for (const v of [-1, 25, 2.5, '5', true, [3], { z: 3 }]) await bad({ attr: { [key]: v } }, `attr.${key}`);
      }
      const res = await bad({ attr: { max_load_level: 30 } }, 'attr.max_load_level');
      assert.match(res.body.reason, /whole numbers from 0 to 24/);
      const de = await admin.post(LAYERS, { name: 'x', attr: { min_zoom: 99 } }, { headers: { 'Accept-Language': 'de' } });
      assert.doesNotMatch(de.body.reason, /whole numbers/);
      assert.match(de.body.reason, /0.*24/);
      await bad({ attr: [1, 2] }, 'attr');
    });

    it('refuses a minimum above its maximum for zooms and load levels, on create and on change', async () => {
      await bad({ attr: { min_zoom: 10, max_zoom: 4 } }, 'attr.min_zoom');
      await bad({ attr: { min_load_level: 12, max_load_level: 11 } }, 'attr.min_load_level');
      const layer = await newLayer(admin, { attr: { min_zoom: 0, max_zoom: 24, min_load_level: 5, max_load_level: 5 } });
      assert.deepEqual(
        layer.attr,
        { min_zoom: 0, max_zoom: 24, min_load_level: 5, max_load_level: 5 },
        'the bounds and equal values are fine',
      );
      await bad({ attr: { ...layer.attr, min_load_level: 6 } }, 'attr.min_load_level', layer);
      await bad({ attr: { min_zoom: 20, max_zoom: 19 } }, 'attr.min_zoom', layer);
      const kept = expectStatus<Layer>(await admin.get(layer.resource_uri), 200);
      assert.deepEqual(kept.attr, layer.attr, 'a refused change keeps the stored zooms');
      const mixed = expectStatus<Layer>(
        await admin.patch(layer.resource_uri, { attr: { min_zoom: 3, max_zoom: null, min_load_level: null, tile_size: 512 } }),
        200,
      );
      assert.deepEqual(mixed.attr, { min_zoom: 3, tile_size: 512 }, 'nulls are removed, other keys kept');
    });

    it('accepts zoom settings for every layer type the spec lists, and no other type', async () => {
      const attr = { min_zoom: 2, max_zoom: 18, min_load_level: 4, max_load_level: 16 };
      for (const type of ZOOM_LAYER_TYPES) {
        const layer = expectStatus<Layer>(await admin.post(LAYERS, { name: `z ${type}`, type, attr }), 201);
        assert.deepEqual([layer.type, layer.attr], [type, attr]);
      }
      const res = await bad({ type: 'raster', attr }, 'type');
      assert.match(res.body.reason, /feature, wfs, external_feature, external_map, mapproxy, pmtiles, metalayer/);
    });
  });
});
