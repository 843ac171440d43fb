import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';

const VIEWS = '/api/v1/view/';
const translations = (id: number) => `/api/v2/presenting/view/${id}/translations`;

/** View translations (spec 002 §3, §5, §7): read with the view, replaced by its writers, the rows the spec keeps. */
describe('views: translations of a view', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let view: { id: number; resource_uri: string };

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'layers', 'views'] });
    admin = await t.admin();
    view = expectStatus(await admin.post(VIEWS, { name: 'Stadtgrün' }), 201);
  });
  after(() => t?.close());

  it('replaces the translations with the rows that have a key and a value, and gives them back with their ids', async () => {
    assert.deepEqual(expectStatus(await admin.get(translations(view.id)), 200), []);
    const saved = expectStatus(
      await admin.post(translations(view.id), [
        { key: 'Stadtgrün', values: { de: '', en: 'Urban green', fr: 'Verdure urbaine' } },
        { key: 'Bäume', values: { en: '', fr: '' } },
      ]),
      200,
    );
    assert.equal(saved.length, 1);
    assert.equal(saved[0].key, 'Stadtgrün');
    assert.deepEqual(saved[0].values, { en: 'Urban green', fr: 'Verdure urbaine' });
    assert.equal(typeof saved[0].key_id, 'number');
    assert.deepEqual(expectStatus(await admin.get(translations(view.id)), 200), saved);
    // Rows come back ordered by key, whatever order they were saved in.
    const sorted = expectStatus(
      await admin.post(translations(view.id), [
        { key: 'Zeder', values: { en: 'Cedar' } },
        { key: 'Ahorn', values: { en: 'Maple' } },
        { key: 'Stadtgrün', values: { en: 'Urban green', fr: 'Verdure urbaine' } },
      ]),
      200,
    );
    assert.deepEqual(
      sorted.map((r: { key: string }) => r.key),
      ['Ahorn', 'Stadtgrün', 'Zeder'],
    );
    assert.deepEqual(expectStatus(await admin.get(translations(view.id)), 200), sorted);
    // A second save replaces the set.
    const again = expectStatus(await admin.post(translations(view.id), [{ key: 'Bäume', values: { en: 'Trees' } }]), 200);
    assert.deepEqual(
      again.map((r: { key: string }) => r.key),
      ['Bäume'],
    );
    // Deleting the view deletes its translations.
    const other = expectStatus(await admin.post(VIEWS, { name: 'Kurz' }), 201);
    expectStatus(await admin.post(translations(other.id), [{ key: 'Kurz', values: { en: 'Short' } }]), 200);
    expectStatus(await admin.delete(other.resource_uri), 204);
    const left = await t.server.db.dataSource.query(`SELECT 1 FROM views_translation WHERE view_id = $1`, [other.id]);
    assert.deepEqual(left, []);
  });

  it('lets readers read and only writers save; a view the caller may not read is not found', async () => {
    const reader = await t.user();
    const stranger = await t.user();
    expectStatus(
      await admin.patch(view.resource_uri, { permissions: [{ user: `/api/v1/user/${reader.id}/`, perms: ['read'] }] }),
      200,
    );
    expectStatus(await reader.client.get(translations(view.id)), 200);
    assertError(await reader.client.post(translations(view.id), []), 403, 'permission_denied');
    assertError(await stranger.client.get(translations(view.id)), 404, 'not_found');
    assertError(await stranger.client.post(translations(view.id), []), 404, 'not_found');
    assertError(await t.client().get(translations(view.id)), 401, 'not_authenticated');
    assertError(await admin.get(translations(999999)), 404, 'not_found');
    assertError(await admin.get('/api/v2/presenting/view/stadtgruen/translations'), 404, 'not_found');
    // Saving is an unsafe call: without the CSRF header it is refused.
    assertError(await admin.post(translations(view.id), [], { csrf: false }), 403, 'csrf_missing');
  });

  it('refuses a body that is not a list of rows, in the caller’s language, and keeps what was saved', async () => {
    const before = expectStatus(await admin.get(translations(view.id)), 200);
    const res = await admin.post(translations(view.id), { key: 'x' }, { headers: { 'accept-language': 'de' } });
    assertError(res, 400, 'invalid_body', /Liste von Zeilen/);
    assertError(await admin.post(translations(view.id), [{ key: 'x', values: { en: 7 } }]), 400, 'invalid_body');
    assert.deepEqual(expectStatus(await admin.get(translations(view.id)), 200), before);
  });

  it('answers 403 component_disabled while the view translation editor is switched off, and saves nothing', async () => {
    const before = expectStatus(await admin.get(translations(view.id)), 200);
    const gate = t.server.licences.gate;
    const switches = gate.switches();
    gate.update({ ...switches, view_translation_editor: false });
    try {
      assertError(await admin.get(translations(view.id)), 403, 'component_disabled');
      assertError(await admin.post(translations(view.id), []), 403, 'component_disabled');
    } finally {
      gate.update(switches);
    }
    assert.deepEqual(expectStatus(await admin.get(translations(view.id)), 200), before);
  });
});
