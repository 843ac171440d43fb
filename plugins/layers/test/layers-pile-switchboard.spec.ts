import assert from 'node:assert/strict';
import { expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { addFrame, addNode, link, newSwitchboard, runAndWait } from '@werkbank/plugin-switchboards/testing';
import type { Layer } from '../src/common/layers-api';
import { featureDepot, newLayer, PLUGINS } from './layers-support';

const feature = {
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 51] }, properties: { name: 'Linde' } },
};
const grantRead = (c: Client, uri: string, userId: number) =>
  c.patch(uri, { permissions: [{ user: `/api/v1/user/${userId}/`, perms: ['read'] }] });

/** spec 001 §3.1 Layerpile `switchboard`: the switchboard that fills the pile's depot (decision 0064). */
describe('layers: the switchboard of a pile', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  before(async () => {
    t = await startTestServer({ plugins: [...PLUGINS, 'basic-functions', 'switchboards'] });
    admin = await t.admin();
  });
  after(() => t?.close());

  it('names the switchboard whose run wrote the depot, to callers who may read that switchboard', async () => {
    const depot = await featureDepot(admin, [{ name: 'Eiche' }]);
    const layer = await newLayer(admin, { layerpiles: [depot.resource_uri] });
    assert.equal(layer.layerpiles[0].switchboard, null, 'written by hand: no switchboard');
    assert.equal(layer.layerpiles[0].switchboard_name, null);

    const sb = await newSwitchboard(admin, { name: 'Bäume laden' });
    const store = await addNode(admin, sb, 'depot.store');
    await link(admin, store, 'datums', await addFrame(admin, sb, 'feature', [feature]), true);
    await link(admin, store, 'depot', await addFrame(admin, sb, 'depot', [{ value: depot.resource_uri }]), true);
    await link(admin, store, 'moment', await addFrame(admin, sb, 'int'), false);
    assert.equal((await runAndWait(t, admin, sb)).status, 'success');

    const read = expectStatus<Layer>(await admin.get(layer.resource_uri), 200);
    assert.deepEqual([read.layerpiles[0].switchboard, read.layerpiles[0].switchboard_name], [sb.resource_uri, 'Bäume laden']);
    const pile = expectStatus<Layer['layerpiles'][number]>(await admin.get(read.layerpiles[0].resource_uri), 200);
    assert.equal(pile.switchboard, sb.resource_uri);

    // A reader of the layer and the depot who may not read the switchboard sees no switchboard.
    const bob = await t.user();
    expectStatus(await grantRead(admin, layer.resource_uri, bob.id), 200);
    expectStatus(await grantRead(admin, depot.resource_uri, bob.id), 200);
    const seen = expectStatus<Layer>(await bob.client.get(layer.resource_uri), 200);
    assert.deepEqual([seen.layerpiles[0].switchboard, seen.layerpiles[0].switchboard_name], [null, null]);
    expectStatus(
      await admin.patch(sb.resource_uri, { permissions: [{ user: `/api/v1/user/${bob.id}/`, perms: ['read'] }] }),
      200,
    );
    const granted = expectStatus<Layer>(await bob.client.get(layer.resource_uri), 200);
    assert.equal(granted.layerpiles[0].switchboard, sb.resource_uri);
  });
});
