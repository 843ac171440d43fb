import assert from 'node:assert/strict';
import { once } from 'node:events';
import { generateLicenceKeyPair, signLicence } from '@werkbank/kernel/node';
import type { LicencePayload } from '@werkbank/sdk';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, connectSocket, cookieHeader, EVENTS, expectStatus, TAGS, type Client } from './api-test-support';

const INSTALL = '/api/v1/addon/licence/';
const DAY = 24 * 3600 * 1000;

/** The component gate without the development licence (DESIGN §2): nothing is on until licensed. */
describe('licences and the component gate', () => {
  let t: TestServer;
  let admin: Client;
  let user: Client;
  const vendor = generateLicenceKeyPair();
  let seq = 0;

  const payload = (components: string[], expires = new Date(Date.now() + 30 * DAY)): LicencePayload => ({
    id: `test-licence-${++seq}`,
    licensee: 'Test customer',
    components,
    issued: new Date(Date.now() - DAY).toISOString(),
    expires: expires.toISOString(),
  });
  const switches = async () => expectStatus(await user.get('/api/v2/backend/config'), 200).components as Record<string, boolean>;

  before(async () => {
    t = await startTestServer({ examples: true, config: { developmentLicence: false } });
    admin = await t.admin();
    user = (await t.user()).client;
  });
  after(async () => {
    await t?.close();
  });

  it('switches every component off when no licence is installed', async () => {
    const config = expectStatus(await user.get('/api/v2/backend/config'), 200);
    assert.ok(Object.keys(config.components).length > 0);
    assert.ok(Object.values(config.components).every((on) => on === false));
    assert.equal(config.licence.development, false);
    assert.equal(config.licence.state, 'none');
  });

  it('refuses calls of an unlicensed kind with component_disabled, naming the add-on', async () => {
    assertError(await user.get(TAGS), 403, 'component_disabled', 'The tags add-on has not yet been licensed.');
    assertError(await user.post(TAGS, { name: 'unlicensed' }), 403, 'component_disabled');
    assertError(await user.get(EVENTS), 403, 'component_disabled', 'The events add-on has not yet been licensed.');
    assertError(
      await user.get('/api/v1/greeting/?tag=1'),
      403,
      'component_disabled',
      'The tags add-on has not yet been licensed.',
    );
  });

  it('closes the live activity feed with 4403 while the events add-on is off', async () => {
    const ws = await connectSocket(`${t.url.replace('http', 'ws')}/ws/events`, { Origin: t.url, Cookie: cookieHeader(user) });
    const [code] = (await once(ws, 'close')) as [number];
    assert.equal(code, 4403);
  });

  it('keeps kinds without a component usable, without the tags of the add-on that is off', async () => {
    const greeting = expectStatus(await user.post('/api/v1/greeting/', { name: 'ungated' }), 201);
    assert.equal('tags' in greeting, false);
  });

  it('refuses a licence signed by a key the server does not trust with 400 and a reason, and switches nothing on', async () => {
    const res = await admin.post(INSTALL, signLicence(payload(['tags']), vendor.privateKeyPem));
    assertError(res, 400, 'licence_invalid', new RegExp(`signed by key ${vendor.keyId}, which this server does not trust`));
    assert.equal((await switches()).tags, false);
    assertError(await user.get(TAGS), 403, 'component_disabled');
  });

  describe('once the vendor’s key is trusted', () => {
    before(() => {
      t.server.licences.trustKey(vendor.publicKeyPem);
    });

    it('refuses a licence whose content was changed after signing', async () => {
      const doc = signLicence(payload(['tags']), vendor.privateKeyPem);
      const res = await admin.post(INSTALL, { ...doc, payload: { ...doc.payload, components: ['*'] } });
      assertError(res, 400, 'licence_invalid', /signature/);
      assert.equal((await switches()).tags, false);
    });

    it('refuses an expired licence and switches nothing on', async () => {
      const doc = signLicence(payload(['events'], new Date(Date.now() - DAY)), vendor.privateKeyPem);
      assertError(await admin.post(INSTALL, doc), 400, 'licence_invalid', /expired/);
      assert.equal((await switches()).events, false);
    });

    it('refuses a user who is not a superuser to install a licence', async () => {
      const doc = signLicence(payload(['tags']), vendor.privateKeyPem);
      assertError(await user.post(INSTALL, doc), 403, 'superuser_required');
      assert.equal((await switches()).tags, false);
    });

    it('switches on the components of a valid licence, and only those', async () => {
      const doc = signLicence(payload(['tags']), vendor.privateKeyPem);

      const res = expectStatus(await admin.post(INSTALL, doc), 201);

      assert.deepEqual(res.components, ['tags']);
      const on = await switches();
      assert.equal(on.tags, true);
      assert.equal(on.events, false);
      expectStatus(await user.get(TAGS), 200);
      expectStatus(await user.post(TAGS, { name: 'licensed' }), 201);
      assertError(await user.get(EVENTS), 403, 'component_disabled');
      const addons = expectStatus(await user.get('/api/v1/addon/'), 200);
      const tags = addons.objects.find((a: { kind: string; id: string }) => a.kind === 'component' && a.id === 'tags');
      assert.equal(tags.enabled, true);
      assert.equal(tags.licence.id, doc.payload.id);
    });
  });
});
