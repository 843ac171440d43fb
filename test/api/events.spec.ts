import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, createGreeting, EVENTS, expectStatus, GREETINGS, userUri, type Client } from './api-test-support';

interface FeedEntry {
  id: number;
  key: string;
  user: string | null;
  user_name: string | null;
  content_kind: string;
  content_object: string | null;
  content_repr: string;
  created: string;
}

/** The activity feed (spec 000 §3 "Event"): written in the same transaction as the change. */
describe('events', () => {
  let t: TestServer;
  let admin: Client;
  let alice: { id: number; username: string; client: Client };
  let bob: { id: number; client: Client };

  /** Every entry (a superuser sees all), newest first. */
  const allEntries = async () => expectStatus(await admin.get(`${EVENTS}?limit=1000`), 200).objects as FeedEntry[];
  const entryCount = async () => expectStatus(await admin.get(`${EVENTS}?limit=1`), 200).meta.total_count as number;
  const entriesOf = async (c: Client, uri: string) =>
    (expectStatus(await c.get(`${EVENTS}?limit=1000&content_kind=greeting`), 200).objects as FeedEntry[]).filter(
      (e) => e.content_object === uri,
    );

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    alice = await t.user();
    bob = await t.user();
  });
  after(async () => {
    await t?.close();
  });

  it('creating, changing and deleting a greeting writes create, update and delete entries, newest first', async () => {
    const g = await createGreeting(alice.client, { name: 'feed greeting' });
    expectStatus(await alice.client.patch(g.resource_uri, { name: 'feed greeting renamed' }), 200);
    expectStatus(await alice.client.delete(g.resource_uri), 204);

    const mine = expectStatus(
      await alice.client.get(`${EVENTS}?content_kind=greeting&user=${encodeURIComponent(userUri(alice.id))}`),
      200,
    ).objects as FeedEntry[];

    assert.deepEqual(
      mine.slice(0, 3).map((e) => [e.key, e.content_repr, e.content_object]),
      [
        ['delete', 'feed greeting renamed', null],
        ['update', 'feed greeting renamed', g.resource_uri],
        ['create', 'feed greeting', g.resource_uri],
      ],
    );
    for (const e of mine.slice(0, 3)) {
      assert.equal(e.user, userUri(alice.id));
      assert.equal(e.user_name, alice.username);
      assert.equal(e.content_kind, 'greeting');
    }
    assert.ok(mine[0].id > mine[1].id && mine[1].id > mine[2].id);
  });

  it('favouring and unfavouring write favor and unfavor entries', async () => {
    const g = await createGreeting(alice.client, { name: 'favoured greeting' });
    expectStatus(await alice.client.get(`${g.resource_uri}favor/`), 200);
    expectStatus(await alice.client.get(`${g.resource_uri}unfavor/`), 200);

    assert.deepEqual(
      (await entriesOf(alice.client, g.resource_uri)).map((e) => e.key),
      ['unfavor', 'favor', 'create'],
    );
  });

  it('narrows the feed with the declared key filter', async () => {
    await createGreeting(alice.client, { name: 'counted creation' });
    const created = expectStatus(await admin.get(`${EVENTS}?key=create&limit=1000`), 200);
    assert.ok(created.objects.length > 0);
    assert.ok(created.objects.every((e: FeedEntry) => e.key === 'create'));
    assert.equal(created.meta.total_count, (await allEntries()).filter((e) => e.key === 'create').length);
  });

  it('writes no entry for a refused request', async () => {
    const g = await createGreeting(alice.client, { name: 'refusals' });
    expectStatus(
      await alice.client.patch(g.resource_uri, { permissions: [{ user: userUri(bob.id), perms: ['read', 'write'] }] }),
      200,
    );
    const before = await entryCount();

    assertError(await alice.client.patch(g.resource_uri, { name: 5 }), 400, 'invalid_field');
    assertError(await alice.client.post(GREETINGS, { name: 'no csrf' }, { csrf: false }), 403, 'csrf_missing');
    assertError(await alice.client.get(`${GREETINGS}999999/favor/`), 404, 'not_found');
    const stranger = await t.user();
    assertError(await stranger.client.patch(g.resource_uri, { message: 'intruder' }), 404, 'not_found');
    // A change that fails after its update ran (grantee may not change grants) rolls back with its entry.
    assertError(await bob.client.patch(g.resource_uri, { message: 'with grants', permissions: [] }), 403, 'permission_denied');

    assert.equal(await entryCount(), before);
    assert.equal(expectStatus(await alice.client.get(g.resource_uri), 200).message, '');
  });

  it('hides the entries of another user’s private greeting until that user is granted read', async () => {
    const g = await createGreeting(alice.client, { name: 'private diary' });
    assert.deepEqual(await entriesOf(bob.client, g.resource_uri), []);
    const feed = expectStatus(await bob.client.get(`${EVENTS}?q=${encodeURIComponent('private diary')}`), 200);
    assert.equal(feed.meta.total_count, 0);

    expectStatus(await alice.client.patch(g.resource_uri, { permissions: [{ user: userUri(bob.id), perms: ['read'] }] }), 200);

    assert.deepEqual(
      (await entriesOf(bob.client, g.resource_uri)).map((e) => e.key),
      ['update', 'create'],
    );
  });

  it('is read-only', async () => {
    const [entry] = await allEntries();
    assertError(await admin.post(EVENTS, { key: 'create' }), 405, 'method_not_allowed');
    assertError(await admin.delete(`${EVENTS}${entry.id}/`), 405, 'method_not_allowed');
    expectStatus(await admin.get(`${EVENTS}${entry.id}/`), 200);
  });
  it('names each entry’s user, and its kind in the reader’s language', async () => {
    const en = await t.user();
    const de = await t.user();
    expectStatus(await admin.patch(userUri(de.id), { language: 'de' }), 200);
    expectStatus(await admin.patch(userUri(en.id), { language: 'en' }), 200);
    const fromEn = await createGreeting(en.client, { name: 'from the English reader' });
    const fromDe = await createGreeting(de.client, { name: 'vom deutschen Leser' });
    const named = (await allEntries())
      .filter((e) => e.content_object === fromEn.resource_uri || e.content_object === fromDe.resource_uri)
      .map((e) => [e.content_repr, e.user_name]);
    assert.deepEqual(named, [
      ['vom deutschen Leser', de.username],
      ['from the English reader', en.username],
    ]);
    for (const [reader, uri, label] of [
      [en, fromEn.resource_uri, 'greeting'],
      [de, fromDe.resource_uri, 'den Gruß'],
    ] as const) {
      const [entry] = (await entriesOf(reader.client, uri)) as Array<FeedEntry & { content_kind_label: string }>;
      assert.equal(entry.content_kind_label, label);
    }
  });

  it('filters by user, kind and a search in the entry’s name, orders by time either way, and hides internal columns', async () => {
    const carla = await t.user();
    const first = await createGreeting(carla.client, { name: 'Carlas erster Gruß' });
    const second = await createGreeting(carla.client, { name: 'Carlas zweiter Gruß' });
    const mine = expectStatus(await admin.get(`${EVENTS}?user=${encodeURIComponent(userUri(carla.id))}&limit=100`), 200)
      .objects as FeedEntry[];
    assert.deepEqual(
      mine.map((e) => e.content_object),
      [second.resource_uri, first.resource_uri],
    );
    assert.ok(mine.every((e) => e.user === userUri(carla.id)));
    const oldest = expectStatus(await admin.get(`${EVENTS}?user=${encodeURIComponent(userUri(carla.id))}&order_by=created`), 200)
      .objects as FeedEntry[];
    assert.deepEqual(
      oldest.map((e) => e.content_object),
      [first.resource_uri, second.resource_uri],
    );
    const found = expectStatus(await carla.client.get(`${EVENTS}?q=${encodeURIComponent('zweiter')}`), 200)
      .objects as FeedEntry[];
    assert.deepEqual(
      found.map((e) => e.content_object),
      [second.resource_uri],
    );
    const kinds = expectStatus(await admin.get(`${EVENTS}?content_kind=user&limit=1000`), 200).objects as FeedEntry[];
    assert.ok(kinds.length > 0 && kinds.every((e) => e.content_kind === 'user'));
    for (const hidden of ['object_id', 'object_owner_id']) assert.equal(hidden in mine[0], false, hidden);
  });

  it('shows everyone the entries of kinds that have no object permissions', async () => {
    const tag = expectStatus(await bob.client.post('/api/v2/backend/tags/', { name: `bobs tag ${Date.now()}` }), 201);
    const seen = expectStatus(await alice.client.get(`${EVENTS}?content_kind=tag&limit=1000`), 200).objects as FeedEntry[];
    assert.deepEqual(
      seen.filter((e) => e.content_object === tag.resource_uri).map((e) => [e.key, e.user]),
      [['create', userUri(bob.id)]],
    );
  });
});
