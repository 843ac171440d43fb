import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';

const PORTALS = '/api/v1/portal/';

/** The portal resource (spec 002 §3–§5; decision 0087): fields, entries as the spec keeps them, permissions, bad input. */
describe('portals: the portal resource', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let layer: { id: number; resource_uri: string };
  let view: { id: number; resource_uri: string };

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'tags', 'layers', 'views', 'portals', 'events'] });
    admin = await t.admin();
    layer = expectStatus(await admin.post('/api/v1/layer/', { name: 'Bäume' }), 201);
    view = expectStatus(await admin.post('/api/v1/view/', { name: 'Stadtgrün' }), 201);
  });
  after(() => t?.close());

  it('creates, reads, lists, changes and deletes a portal with its views and layers, keeping only what spec 002 §5 keeps', async () => {
    const portal = expectStatus(
      await admin.post(PORTALS, {
        name: 'Grünportal',
        slug: 'gruen',
        attr: { color: '#2d72d2', columns: 3 },
        views: [
          {
            view: view.resource_uri,
            name: 'Stadtgrün',
            attr: { subline: 'Bäume', description: '', infobox_text: '  ', headline_icon: 'plant', image: null },
          },
          { attr: { external_url: 'https://geoportal.example.org/karte' } },
        ],
        layers: [
          { layer: layer.resource_uri, name: 'Bäume', attr: { description: 'Alle Bäume', queryable: true, exportable: false } },
        ],
      }),
      201,
    );
    for (const f of ['id', 'name', 'slug', 'attr', 'public', 'permissions', 'user', 'layers', 'views', 'tags', 'resource_uri'])
      assert.ok(f in portal, `field ${f}`);
    assert.equal(portal.public, false);
    assert.deepEqual(portal.attr, { color: '#2d72d2', columns: 3 });
    assert.deepEqual(portal.views, [
      {
        view: view.resource_uri,
        name: 'Stadtgrün',
        order: 0,
        attr: { subline: 'Bäume', headline_icon: 'plant' },
        portal: portal.resource_uri,
      },
      {
        view: null,
        name: '(https://geoportal.example.org/karte)',
        order: 1,
        attr: { external_url: 'https://geoportal.example.org/karte' },
        portal: portal.resource_uri,
      },
    ]);
    assert.deepEqual(portal.layers, [
      {
        layer: layer.resource_uri,
        name: 'Bäume',
        order: 0,
        attr: { description: 'Alle Bäume', queryable: true },
        portal: portal.resource_uri,
      },
    ]);
    // Reordering: the order is the position.
    const reordered = expectStatus(await admin.patch(portal.resource_uri, { views: [portal.views[1], portal.views[0]] }), 200);
    assert.deepEqual(
      reordered.views.map((v: { name: string; order: number }) => [v.order, v.name]),
      [
        [0, '(https://geoportal.example.org/karte)'],
        [1, 'Stadtgrün'],
      ],
    );
    assert.deepEqual(reordered.layers, portal.layers, 'the layers stay');
    const relayered = expectStatus(await admin.patch(portal.resource_uri, { layers: [] }), 200);
    assert.deepEqual(relayered.views, reordered.views, 'the views stay');
    assert.ok(reordered.modified > portal.modified, 'a change moves the time of the last change');
    // Keeping its own short name is no clash.
    assert.equal(expectStatus(await admin.patch(portal.resource_uri, { slug: 'gruen', name: 'Grünportal!' }), 200).slug, 'gruen');
    const listed = expectStatus(await admin.get(`${PORTALS}?q=Grün`), 200);
    assert.deepEqual(
      listed.objects.map((p: { id: number }) => p.id),
      [portal.id],
    );
    expectStatus(await admin.delete(portal.resource_uri), 204);
    assertError(await admin.get(portal.resource_uri), 404, 'not_found');
  });

  it('lets only holders of publish_view switch a portal between PUBLIC and INTERNAL ONLY', async () => {
    const author = await t.user();
    assertError(await author.client.post(PORTALS, { name: 'Gleich öffentlich', public: true }), 403, 'permission_required');
    const portal = expectStatus(await author.client.post(PORTALS, { name: 'Mein Portal', public: false }), 201);
    const refused = await author.client.patch(portal.resource_uri, { public: true }, { headers: { 'accept-language': 'de' } });
    assertError(refused, 403, 'permission_required', /Ansichten veröffentlichen/);
    expectStatus(await admin.patch(`/api/v1/user/${author.id}/`, { user_permissions: ['publish_view'] }), 200);
    assert.equal(expectStatus(await author.client.patch(portal.resource_uri, { public: true }), 200).public, true);
    // Public: every signed-in user reads it; nobody else writes it.
    const other = await t.user();
    expectStatus(await other.client.get(portal.resource_uri), 200);
    assertError(await other.client.patch(portal.resource_uri, { name: 'Meins' }), 403, 'permission_denied');
  });

  it('answers bad entries with the field and a message in the caller’s language, and stores nothing', async () => {
    const author = await t.user();
    const before = expectStatus(await admin.get(PORTALS), 200).meta.total_count;
    const cases: Array<[Record<string, unknown>, string, RegExp, Client?]> = [
      [{ views: [{ name: 'Nichts' }] }, 'views[0].view', /eine Ansicht oder/],
      [{ views: [{ attr: { external_url: 'ftp://x.example.org' } }] }, 'views[0].attr.external_url', /http:\/\/ oder https:\/\//],
      [
        { views: [{ view: view.resource_uri, attr: { headline_icon: 'moon' } }] },
        'views[0].attr.headline_icon',
        /sun, plant, info, map, temp/,
      ],
      [{ views: [{ view: '/api/v1/view/999999/' }] }, 'views[0].view', /nicht lesen dürfen \(999999\)/],
      [{ layers: [{ layer: 'Bäume' }] }, 'layers[0].layer', /Adresse eines Layers/],
      [
        { layers: [{ layer: layer.resource_uri }, { layer: '/api/v1/layer/999999/' }] },
        'layers[1].layer',
        /einen Layer, den es nicht gibt oder den Sie nicht lesen dürfen \(999999\)/,
      ],
      [{ layers: 'alle' }, 'layers', /Liste/],
      [{ layers: [{ layer: layer.resource_uri, attr: [] }] }, 'layers[0].attr', /Objekt/],
      [{ attr: ['x'] }, 'attr', /Objekt/],
      [{ attr: 'viel' }, 'attr', /Objekt/],
      // Advanced settings are settings, not a store: at most 100,000 characters.
      [{ attr: { notes: 'x'.repeat(100_000) } }, 'attr', /Objekt/],
      // A view the author may not read is refused like a missing one.
      [{ views: [{ view: view.resource_uri }] }, 'views[0].view', /nicht lesen dürfen/, author.client],
    ];
    for (const [fields, field, message, client] of cases) {
      const res = await (client ?? admin).post(PORTALS, { name: 'Falsch', ...fields }, { headers: { 'accept-language': 'de' } });
      assertError(res, 400, 'invalid_field', message);
      assert.equal(res.body.field, field, JSON.stringify(fields));
    }
    expectStatus(await admin.post(PORTALS, { name: 'Eins', slug: 'eins' }), 201);
    const taken = await admin.post(PORTALS, { name: 'Zwei', slug: 'eins' });
    assertError(taken, 400, 'slug_taken', /already used by another portal/);
    assert.equal(taken.body.field, 'slug');
    // Without a short name (the portal page then has no address) any number of portals may exist.
    for (const name of ['Ohne 1', 'Ohne 2']) expectStatus(await admin.post(PORTALS, { name, slug: '' }), 201);
    // Settings up to 100,000 characters as JSON are kept.
    const full = { notes: 'x'.repeat(100_000 - '{"notes":""}'.length) };
    assert.equal(JSON.stringify(full).length, 100_000);
    const kept = expectStatus(await admin.post(PORTALS, { name: 'Voll', attr: full }), 201);
    assert.equal(kept.attr.notes.length, full.notes.length);
    const two = expectStatus(await admin.post(PORTALS, { name: 'Zwei', slug: 'zwei' }), 201);
    assertError(await admin.patch(two.resource_uri, { slug: 'eins' }), 400, 'slug_taken', /“eins”/);
    expectStatus(await admin.delete(two.resource_uri), 204);
    assert.equal(expectStatus(await admin.get(PORTALS), 200).meta.total_count, before + 4);
  });

  it('lists portals by name unless asked otherwise', async () => {
    const lister = await t.user();
    for (const name of ['Zeder', 'Ahorn', 'Buche']) expectStatus(await lister.client.post(PORTALS, { name }), 201);
    const listed = expectStatus(await lister.client.get(PORTALS), 200);
    assert.deepEqual(
      listed.objects.map((p: { name: string }) => p.name).filter((n: string) => ['Ahorn', 'Buche', 'Zeder'].includes(n)),
      ['Ahorn', 'Buche', 'Zeder'],
    );
  });

  it('names its object permissions for the user and group editors, in both languages', async () => {
    const { client } = await t.user();
    for (const [lang, read, write] of [
      ['en', 'Portal: read', 'Portal: edit'],
      ['de', 'Portal: lesen', 'Portal: bearbeiten'],
    ]) {
      const { objects } = expectStatus(
        await client.get('/api/v2/backend/permissions', { headers: { 'accept-language': lang } }),
        200,
      );
      const labels = Object.fromEntries(objects.map((p: { name: string; label: string }) => [p.name, p.label]));
      assert.equal(labels.read_portal, read, lang);
      assert.equal(labels.write_portal, write, lang);
    }
  });

  it('names portals in the activity feed in the reader’s language', async () => {
    const author = await t.user();
    const portal = expectStatus(await author.client.post(PORTALS, { name: 'Im Feed' }), 201);
    for (const [language, label] of [
      ['en', 'portal'],
      ['de', 'das Portal'],
    ]) {
      expectStatus(await admin.patch(`/api/v1/user/${author.id}/`, { language }), 200);
      const feed = expectStatus(await author.client.get('/api/v1/event/?content_kind=portal'), 200).objects as {
        key: string;
        content_object: string;
        content_kind_label: string;
      }[];
      assert.deepEqual(
        feed.filter((e) => e.content_object === portal.resource_uri).map((e) => [e.key, e.content_kind_label]),
        [['create', label]],
        language,
      );
    }
  });

  it('keeps short names unique in the database itself, so that two saves at once cannot share one', async () => {
    const db = t.server.db.dataSource;
    await db.query(`INSERT INTO portals_portal (name, slug) VALUES ('Erstes', 'doppelt'), ('Ohne A', ''), ('Ohne B', '')`);
    await assert.rejects(db.query(`INSERT INTO portals_portal (name, slug) VALUES ('Zweites', 'doppelt')`), /unique|duplicate/i);
  });
});
