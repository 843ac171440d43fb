import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, GREETINGS, TAGS, type Client } from './api-test-support';

interface Addon {
  available?: boolean;
  id: string;
  kind: 'plugin' | 'component';
  enabled: boolean;
  components?: string[];
  plugins?: string[];
  licence: { development: boolean } | null;
}

/** What every installation offers: configuration, the Apps screen's calls, the API reference. */
describe('platform: configuration, add-ons, API reference', () => {
  let t: TestServer;
  let user: { id: number; client: Client };

  before(async () => {
    t = await startTestServer({ examples: true });
    user = await t.user();
  });
  after(async () => {
    await t?.close();
  });

  describe('configuration', () => {
    it('switches every component on under the development licence and says it is one', async () => {
      const config = expectStatus(await user.client.get('/api/v2/backend/config'), 200);
      assert.ok(Object.keys(config.components).length > 0);
      assert.ok(Object.values(config.components).every((on) => on === true));
      assert.equal(config.licence.development, true);
      assert.equal(config.licence.state, 'valid');
      for (const id of ['events', 'hello', 'tags']) assert.ok(config.plugins.includes(id), `${id} is listed`);
    });

    it('is readable before login and says who is signed in', async () => {
      const anonymous = expectStatus(await t.client().get('/api/v2/backend/config'), 200);
      assert.equal(anonymous.auth.is_authenticated, false);
      assert.equal(anonymous.auth.user, null);
      const signedIn = expectStatus(await user.client.get('/api/v2/backend/config'), 200);
      assert.equal(signedIn.auth.is_authenticated, true);
      assert.equal(signedIn.auth.user, `/api/v1/user/${user.id}/`);
      assert.equal(signedIn.auth.is_superuser, false);
    });
  });

  describe('add-ons', () => {
    it('lists the installed plugins and the licensed components', async () => {
      const res = expectStatus(await user.client.get('/api/v1/addon/'), 200);
      const addons = res.objects as Addon[];
      const plugin = addons.find((a) => a.kind === 'plugin' && a.id === 'tags');
      assert.ok(plugin);
      assert.deepEqual(plugin.components, ['tags']);
      assert.equal(plugin.enabled, true);
      assert.ok(addons.some((a) => a.kind === 'plugin' && a.id === 'hello'));
      const component = addons.find((a) => a.kind === 'component' && a.id === 'tags');
      assert.ok(component);
      assert.equal(component.enabled, true);
      assert.deepEqual(component.plugins, ['tags']);
      assert.equal(component.licence?.development, true);
      assert.equal(component.available, true, 'the tags plugin implements the tags add-on');
      const byName = new Map(addons.filter((a) => a.kind === 'component').map((a) => [a.id, a]));
      assert.equal(byName.get('node_runs')?.available, true, 'the switchboards implement the node run history');
      assert.equal(byName.get('filter_editor')?.available, true, 'the layers plugin implements the filter editor');
      assert.equal(byName.get('api_stats')?.available, true, 'the administration shows the API statistics');
      assert.equal(byName.get('view_translation_editor')?.available, true, 'the views plugin implements the translation editor');
      assert.equal(byName.get('analytics')?.available, true, 'the views plugin implements the visitor statistics');
      assert.equal(byName.get('parquet')?.available, false, 'parquet: no installed plugin implements it');
      assert.equal(res.meta.total_count, addons.length);
      assert.deepEqual(res.licences, [], 'licence documents and refusal reasons are for superusers only');
    });

    it('records a user’s interest in an add-on', async () => {
      expectStatus(await user.client.get('/api/v1/addon/tags/inform/'), 200);
      const rows = await t.server.db.dataSource.query(`SELECT addon, user_id FROM werkbank_addon_interest WHERE user_id = $1`, [
        user.id,
      ]);
      assert.deepEqual(rows, [{ addon: 'tags', user_id: user.id }]);
    });

    it('refuses interest in an unknown add-on with 404 and records nothing', async () => {
      const other = await t.user();
      assertError(await other.client.get('/api/v1/addon/no-such-addon/inform/'), 404, 'unknown_addon');
      const rows = await t.server.db.dataSource.query(`SELECT 1 FROM werkbank_addon_interest WHERE user_id = $1`, [other.id]);
      assert.deepEqual(rows, []);
    });

    it('needs a signed-in user', async () => {
      assertError(await t.client().get('/api/v1/addon/'), 401, 'not_authenticated');
    });
  });

  describe('API reference and unknown addresses', () => {
    it('lists the greeting and tag paths in /api/openapi.json', async () => {
      const doc = expectStatus(await t.client().get('/api/openapi.json'), 200);
      assert.equal(doc.openapi, '3.0.3');
      for (const path of [GREETINGS, `${GREETINGS}{id}/`, TAGS, `${TAGS}{id}/`, `${TAGS}{id}/assign-to/`]) {
        assert.ok(doc.paths[path], `${path} is described`);
      }
      assert.ok(doc.paths[GREETINGS].post);
      assert.ok(doc.components.schemas.greeting.properties.name);
    });

    it('answers an unknown /api/ address with a 404 JSON error', async () => {
      const res = await user.client.get('/api/v1/no-such-kind/');
      assertError(res, 404, 'not_found', 'The requested object was not found.');
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assertError(await user.client.get(`${GREETINGS}not-a-number/`), 404, 'not_found');
      assertError(await user.client.post('/api/v2/nothing-here', { a: 1 }), 404, 'not_found');
    });
  });
});
