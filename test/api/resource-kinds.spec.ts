import assert from 'node:assert/strict';
import { loadNodePlugins } from '@werkbank/server';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { encodeCursor } from '../../server/src/resources/list-cursor';
import { assertError, EVENTS, expectStatus, TAGS, userUri, type Client } from './api-test-support';
import { BOARDS, LOGS, MEMOS, NOTES, probe, SECRETS } from './probe-resource-plugin';

const ROOT = new URL('../..', import.meta.url).pathname;

interface Note {
  id: number;
  resource_uri: string;
  name: string;
  public: boolean;
  zoom: number;
  size: number;
  access: string[];
  favored: boolean;
  permissions: Array<{ user?: string; group?: string; perms: string[] }>;
  [field: string]: unknown;
}

/**
 * The resource layer's options of a kind (DESIGN §3, sdk ResourceDefinition), on kinds of a probe
 * plugin that uses each: published objects, superuser-only and read-only kinds, owned kinds without
 * object permissions, kinds without feed entries, the create and write hooks, actions, related
 * objects (contextview) and API key realms.
 */
describe('resource layer: the options of a kind', () => {
  let t: TestServer;
  let admin: Client;
  let owner: { id: number; client: Client };
  let other: { id: number; client: Client };

  const createNote = async (c: Client, fields: Record<string, unknown>) => expectStatus<Note>(await c.post(NOTES, fields), 201);
  const feedOf = async (uri: string) =>
    (
      expectStatus(await admin.get(`${EVENTS}?limit=1000`), 200).objects as Array<{
        key: string;
        content_object: string | null;
        content_repr: string;
        content_kind: string;
        metadata: unknown;
      }>
    ).filter((e) => e.content_object === uri);

  before(async () => {
    t = await startTestServer({ entries: [...(await loadNodePlugins(ROOT, { chosen: ['events', 'tags'] })), probe] });
    admin = await t.admin();
    owner = await t.user();
    other = await t.user();
  });
  after(async () => {
    await t?.close();
  });

  describe('published objects', () => {
    it('lets every signed-in user read a published object, but not change it', async () => {
      const shown = await createNote(owner.client, { name: 'shown', public: true });
      const hidden = await createNote(owner.client, { name: 'hidden' });

      const listed = expectStatus(await other.client.get(`${NOTES}?limit=1000`), 200).objects as Note[];
      assert.deepEqual(
        listed.map((n) => n.name),
        ['shown'],
      );
      assert.deepEqual(listed[0].access, ['read']);
      assert.deepEqual(expectStatus<Note>(await other.client.get(shown.resource_uri), 200).access, ['read']);
      expectStatus(await other.client.get(`${shown.resource_uri}peek/`), 200);
      assertError(await other.client.patch(shown.resource_uri, { name: 'taken over' }), 403, 'permission_denied');
      assertError(await other.client.get(hidden.resource_uri), 404, 'not_found');
      assertError(await other.client.get(`${hidden.resource_uri}peek/`), 404, 'not_found');
      assert.deepEqual(expectStatus<Note>(await owner.client.get(hidden.resource_uri), 200).access, ['read', 'write', 'execute']);
    });

    it('gives a grantee what the grant says, published or not', async () => {
      const granted = await createNote(owner.client, {
        name: 'granted',
        public: true,
        permissions: [{ user: userUri(other.id), perms: ['write'] }],
      });
      assert.deepEqual(expectStatus<Note>(await other.client.get(granted.resource_uri), 200).access, ['read', 'write']);
      expectStatus(await other.client.patch(granted.resource_uri, { name: 'granted, renamed' }), 200);
      assertError(await other.client.post(`${granted.resource_uri}run/`, {}), 403, 'permission_denied');
    });
    it('replies every holder’s grants of each object, users and groups apart', async () => {
      const third = await t.user();
      const group = expectStatus(await admin.post('/api/v1/group/', { name: 'probe readers' }), 201);
      const runners = expectStatus(await admin.post('/api/v1/group/', { name: 'probe runners' }), 201);
      const grants = [
        { user: userUri(other.id), perms: ['read', 'write'] },
        { user: userUri(third.id), perms: ['read'] },
        { group: group.resource_uri, perms: ['read', 'execute'] },
        { group: runners.resource_uri, perms: ['execute'] },
      ];
      const shared = await createNote(owner.client, { name: 'shared', permissions: grants });
      const alsoShared = await createNote(owner.client, { name: 'also shared', permissions: grants.slice(1) });
      assert.deepEqual(shared.permissions, grants);
      const listed = expectStatus(await owner.client.get(`${NOTES}?q=shared&order_by=name`), 200).objects as Note[];
      assert.deepEqual(
        listed.map((n) => [n.id, n.permissions]),
        [
          [alsoShared.id, grants.slice(1)],
          [shared.id, grants],
        ],
      );
    });
  });

  describe('actions', () => {
    let n: Note;
    before(async () => {
      n = await createNote(owner.client, { name: 'acted on', permissions: [{ user: userUri(other.id), perms: ['read'] }] });
    });

    it('runs an object’s action with the access it needs and answers what the handler returns', async () => {
      assert.deepEqual(expectStatus(await other.client.get(`${n.resource_uri}peek/`), 200), { name: 'acted on' });
      assertError(await other.client.post(`${n.resource_uri}touch/`, {}), 403, 'permission_denied');
      assertError(await other.client.post(`${n.resource_uri}run/`, {}), 403, 'permission_denied');
      assert.deepEqual(expectStatus(await owner.client.post(`${n.resource_uri}touch/`, {}), 200), { status: 'ok' });
      assert.deepEqual(expectStatus(await owner.client.post(`${n.resource_uri}run/`, { fast: true }), 200), {
        ran: true,
        body: { fast: true },
      });
      assertError(await owner.client.get(`${NOTES}999999/peek/`), 404, 'not_found');
      assert.equal((await owner.client.get(`${NOTES}abc/peek/`)).status, 404);
    });

    it('runs a list action with the query', async () => {
      assert.deepEqual(expectStatus(await other.client.get(`${NOTES}tally/?a=1&a=2&b=`), 200), { query: { a: '1,2', b: '' } });
    });
  });

  describe('related objects and API key realms', () => {
    it('shows the related objects to a session, and to an API key only those of its realms', async () => {
      const n = await createNote(owner.client, { name: 'related' });
      const all = expectStatus(await owner.client.get(`${n.resource_uri}contextview/`), 200);
      assert.equal(all.type, 'probenote');
      assert.equal(all.resource_uri, n.resource_uri);
      assert.equal(all.objects.length, 3);
      assert.equal(all.relations.length, 2);

      expectStatus(await admin.patch(userUri(owner.id), { user_permissions: ['access_connect'] }), 200);
      const keyed = async (realms: string[]) => {
        const { key } = expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(owner.id), realms }), 201);
        const c = t.client();
        c.headers = { authorization: `ApiKey ${key}` };
        return c;
      };
      const narrow = await keyed(['probenote', 'probe-logs']);
      assert.deepEqual(expectStatus(await narrow.get(`${n.resource_uri}contextview/`), 200), {
        type: 'probenote',
        resource_uri: n.resource_uri,
        relations: [{ from: n.resource_uri, to: `${LOGS}1/` }],
        objects: [{ type: 'probelog', resource_uri: `${LOGS}1/` }],
      });
      const everything = await keyed(['*']);
      assert.equal(expectStatus(await everything.get(`${n.resource_uri}contextview/`), 200).objects.length, 3);
      const memosOnly = await keyed(['probememo']);
      assertError(await memosOnly.get(LOGS), 403, 'realm_denied');
      assertError(await admin.get(`${NOTES}999999/contextview/`), 404, 'not_found');
    });
  });

  describe('kind options', () => {
    it('lets only superusers see, create or change objects of a superuser-only kind', async () => {
      const s = expectStatus(await admin.post(SECRETS, { name: 'launch codes' }), 201);
      assert.deepEqual(s.access, ['read', 'write']);
      assert.equal(expectStatus(await other.client.get(SECRETS), 200).meta.total_count, 0);
      assertError(await other.client.get(s.resource_uri), 404, 'not_found');
      assertError(await other.client.post(SECRETS, { name: 'mine now' }), 403, 'permission_denied');
      assertError(await other.client.patch(s.resource_uri, { name: 'mine now' }), 404, 'not_found');
      assert.equal(expectStatus(await admin.get(SECRETS), 200).meta.total_count, 1);
    });

    it('refuses create, change and delete on a read-only kind with 405, and offers only reading', async () => {
      const [first] = expectStatus(await other.client.get(`${LOGS}?order_by=id`), 200).objects;
      assert.deepEqual(first.access, ['read']);
      assert.deepEqual(expectStatus(await admin.get(first.resource_uri), 200).access, ['read']);
      assertError(await admin.post(LOGS, { line: 'forged' }), 405, 'method_not_allowed');
      assertError(await admin.patch(first.resource_uri, { line: 'forged' }), 405, 'method_not_allowed');
      assertError(await admin.delete(first.resource_uri), 405, 'method_not_allowed');
    });

    it('lets others read but not change an owned object of a kind without object permissions, and writes no feed entry', async () => {
      assertError(await owner.client.post(MEMOS, { text: 'by a user' }), 403, 'permission_denied');
      const m = expectStatus(await admin.post(MEMOS, { text: 'by the admin' }), 201);
      const seen = expectStatus(await other.client.get(m.resource_uri), 200);
      assert.deepEqual(seen.access, ['read']);
      assert.equal('permissions' in seen, false, 'no grants on a kind without object permissions');
      assertError(await other.client.patch(m.resource_uri, { text: 'changed' }), 403, 'permission_denied');
      expectStatus(await admin.patch(m.resource_uri, { text: 'changed' }), 200);
      assert.deepEqual(await feedOf(m.resource_uri), []);
    });

    it('lets every signed-in user change an object of a kind that is neither owned nor guarded, as far as its read filter shows it', async () => {
      const b = expectStatus(await owner.client.post(BOARDS, { title: 'shared board' }), 201);
      expectStatus(await owner.client.post(BOARDS, { title: 'private board' }), 201);
      assert.deepEqual(expectStatus(await other.client.get(b.resource_uri), 200).access, ['read', 'write']);
      expectStatus(await other.client.patch(b.resource_uri, { title: 'shared board, changed' }), 200);
      assert.deepEqual(
        (expectStatus(await other.client.get(BOARDS), 200).objects as Array<{ title: string }>).map((o) => o.title),
        ['shared board, changed'],
      );
      assert.equal(expectStatus(await admin.get(BOARDS), 200).meta.total_count, 2, 'superusers pass the read filter');
      assert.deepEqual(
        (await feedOf(b.resource_uri)).map((e) => [e.key, e.content_repr]),
        [
          ['update', `probeboard ${b.id}`],
          ['create', `probeboard ${b.id}`],
        ],
        'named by kind and id when the kind has no name field',
      );
      assert.equal(
        expectStatus(await other.client.get(`${LOGS}?q=started`), 200).meta.total_count,
        2,
        'no search fields: q narrows nothing',
      );
    });

    it('refuses what the write hook refuses, and offers no write on such objects', async () => {
      const frozen = await createNote(owner.client, { name: 'frozen' });
      assert.deepEqual(frozen.access, ['read', 'execute']);
      assertError(await owner.client.patch(frozen.resource_uri, { zoom: 2 }), 403, 'permission_denied');
      assertError(await owner.client.delete(frozen.resource_uri), 403, 'permission_denied');
    });
  });

  describe('writes and their feed entries', () => {
    it('writes no feed entry for a change of view state only', async () => {
      const n = await createNote(owner.client, { name: 'viewed' });
      expectStatus(await owner.client.patch(n.resource_uri, { zoom: 3 }), 200);
      assert.deepEqual(
        (await feedOf(n.resource_uri)).map((e) => e.key),
        ['create'],
      );
      expectStatus(await owner.client.patch(n.resource_uri, { zoom: 4, name: 'viewed and renamed' }), 200);
      const entries = await feedOf(n.resource_uri);
      assert.deepEqual(
        entries.map((e) => [e.key, e.content_repr]),
        [
          ['update', 'viewed and renamed'],
          ['create', 'viewed'],
        ],
      );
      assert.deepEqual(entries[0].metadata, { fields: ['zoom', 'name'] });
      assert.ok(
        entries.every((e) => typeof (e as unknown as { id: unknown }).id === 'number'),
        'feed ids are numbers',
      );
    });

    it('records a deletion without the object’s address, and forgets its grants and favourites', async () => {
      const n = await createNote(owner.client, { name: 'doomed', permissions: [{ user: userUri(other.id), perms: ['read'] }] });
      expectStatus(await other.client.get(`${n.resource_uri}favor/`), 200);
      const kept = await createNote(owner.client, { name: 'kept' });
      expectStatus(await owner.client.delete(n.resource_uri), 204);
      assertError(await owner.client.get(n.resource_uri), 404, 'not_found');
      expectStatus(await owner.client.get(kept.resource_uri), 200);
      const deleted = (
        expectStatus(await admin.get(`${EVENTS}?limit=1000&content_kind=probenote`), 200).objects as Array<{
          key: string;
          content_object: string | null;
          content_repr: string;
        }>
      ).filter((e) => e.content_repr === 'doomed');
      assert.deepEqual(
        deleted.map((e) => [e.key, e.content_object]),
        [
          ['delete', null],
          ['favor', n.resource_uri],
          ['create', n.resource_uri],
        ],
      );
      const [{ grants, favourites }] = (await t.server.db.dataSource.query(
        `SELECT (SELECT count(*)::int FROM werkbank_object_permission WHERE kind = 'probenote' AND object_id = $1) AS grants,
                (SELECT count(*)::int FROM werkbank_favorite WHERE kind = 'probenote' AND object_id = $1) AS favourites`,
        [n.id],
      )) as { grants: number; favourites: number }[];
      assert.deepEqual({ grants, favourites }, { grants: 0, favourites: 0 });
    });

    it('favours and unfavours, answering and showing the state', async () => {
      const n = await createNote(owner.client, { name: 'liked' });
      assert.deepEqual(expectStatus(await owner.client.get(`${n.resource_uri}favor/`), 200), { status: 'ok', favored: true });
      assert.equal(expectStatus<Note>(await owner.client.get(n.resource_uri), 200).favored, true);
      assert.deepEqual(expectStatus(await owner.client.post(`${n.resource_uri}unfavor/`, {}), 200), {
        status: 'ok',
        favored: false,
      });
      assert.equal(expectStatus<Note>(await owner.client.get(n.resource_uri), 200).favored, false);
      assert.deepEqual(
        (await feedOf(n.resource_uri)).map((e) => e.key),
        ['unfavor', 'favor', 'create'],
      );
    });

    it('shows the owner the feed entries others make on the owner’s objects', async () => {
      const n = await createNote(owner.client, { name: 'popular', public: true });
      expectStatus(await other.client.get(`${n.resource_uri}favor/`), 200);
      const seen = expectStatus(await owner.client.get(`${EVENTS}?limit=1000&content_kind=probenote`), 200).objects as Array<{
        key: string;
        content_object: string;
      }>;
      assert.deepEqual(
        seen.filter((e) => e.content_object === n.resource_uri).map((e) => e.key),
        ['favor', 'create'],
      );
    });

    it('on a store (POST on the object) takes what may be written and ignores grants from one who may not manage them', async () => {
      const n = await createNote(owner.client, { name: 'stored', permissions: [{ user: userUri(other.id), perms: ['write'] }] });
      const read = expectStatus<Note>(await other.client.get(n.resource_uri), 200);
      const stored = expectStatus<Note>(
        await other.client.post(n.resource_uri, {
          ...read,
          name: 'stored again',
          permissions: [{ user: userUri(other.id), perms: ['read', 'write'] }],
        }),
        200,
      );
      assert.equal(stored.name, 'stored again');
      assert.deepEqual(stored.permissions, [{ user: userUri(other.id), perms: ['write'] }]);
      const byOwner = expectStatus<Note>(await owner.client.post(n.resource_uri, { ...stored, permissions: [] }), 200);
      assert.deepEqual(byOwner.permissions, []);
      assert.deepEqual((await feedOf(n.resource_uri)).map((e) => e.key).slice(0, 2), ['store', 'store']);
    });
  });

  describe('lists and replies', () => {
    it('searches text and number fields, trimming the search text, and leaves hidden fields out of replies', async () => {
      await createNote(owner.client, { name: 'numbered', size: 4711, pin: 'never shown' });
      const found = expectStatus(await owner.client.get(`${NOTES}?q=${encodeURIComponent('  4711 ')}`), 200).objects as Note[];
      assert.deepEqual(
        found.map((n) => n.name),
        ['numbered'],
      );
      assert.equal('pin' in found[0], false);
      assert.equal(expectStatus(await owner.client.get(`${NOTES}?q=never`), 200).meta.total_count, 0);
    });

    it('accepts the reserved format and lang parameters and a trailing comma in filter', async () => {
      expectStatus(await owner.client.get(`${NOTES}?lang=de&format=json`), 200);
      expectStatus(await owner.client.get(`${NOTES}?filter=mine,`), 200);
      const res = await owner.client.get(`${NOTES}?filter=nonsense`);
      assertError(res, 400, 'unknown_filter', /nonsense/);
      assert.equal(res.body.field, 'filter');
    });

    it('refuses query parameters on calls that take none, naming the parameter', async () => {
      const res = await owner.client.post(`${NOTES}?colour=red`, { name: 'with a query' });
      assertError(res, 400, 'unknown_parameter', /colour/);
      assert.equal(res.body.field, 'colour');
      assertError(await owner.client.get(`${NOTES}1/?x=1`), 400, 'unknown_parameter');
      for (const id of ['x1', '1x', '1234567890']) assert.equal((await owner.client.get(`${NOTES}${id}/`)).status, 404, id);
    });

    it('applies the kind’s own and the extensions’ list parameters, ignoring them when empty', async () => {
      const all = expectStatus(await owner.client.get(`${NOTES}?limit=1`), 200).meta.total_count;
      assert.equal(expectStatus(await owner.client.get(`${NOTES}?longer=&tag=`), 200).meta.total_count, all);
      const long = expectStatus(await owner.client.get(`${NOTES}?longer=15&limit=1000`), 200).objects as Note[];
      assert.ok(long.length > 0 && long.length < all);
      assert.ok(long.every((n) => n.name.length > 15));
    });

    it('pages by cursor an order whose last key holds nulls', async () => {
      for (const [i, due] of [null, '2026-01-02T00:00:00Z', null, '2026-01-01T00:00:00Z'].entries()) {
        await createNote(owner.client, { name: `due ${i}`, due });
      }
      for (const order of ['id,due', '-id,-due']) {
        const expected = (
          expectStatus(await owner.client.get(`${NOTES}?order_by=${order}&limit=1000`), 200).objects as Note[]
        ).map((n) => n.id);
        const walked: number[] = [];
        let next: string | null = `${NOTES}?order_by=${order}&limit=1`;
        while (next) {
          const page: { objects: Note[]; meta: { next: string | null } } = expectStatus(await owner.client.get(next), 200);
          walked.push(...page.objects.map((n) => n.id));
          next = page.meta.next;
        }
        assert.deepEqual(walked, expected, order);
        assert.ok(expected.length > 4);
      }
    });

    it('refuses a cursor with too few values, a value not as the database writes it, or one the column cannot hold', async () => {
      for (const [order, values] of [
        ['name,id', ['a']],
        ['name,id', ['a', '1', 'x']],
        ['id,name', ['1']],
        ['due,id', ['2026-01-01T10:00:00Z', '1']],
        ['id', ['9999999999']],
      ] as const) {
        const after = encodeCursor({ order, values: [...values] });
        assertError(await owner.client.get(`${NOTES}?order_by=${order}&after=${after}`), 400, 'invalid_cursor');
      }
    });

    it('lets a plugin check an API key’s realms for the objects it acts on (tags by address)', async () => {
      const n = await createNote(owner.client, { name: 'tagged' });
      const tag = expectStatus(await owner.client.post(TAGS, { name: 'probe tag' }), 201);
      const keyed = async (realms: string[]) => {
        const { key } = expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(owner.id), realms }), 201);
        const c = t.client();
        c.headers = { authorization: `ApiKey ${key}` };
        return c;
      };
      expectStatus(await admin.patch(userUri(owner.id), { user_permissions: ['access_connect'] }), 200);
      const assign = (c: Client, address: string) =>
        c.patch(`${tag.resource_uri}assign-to/?resource_ids=${encodeURIComponent(address)}`, {}, { csrf: false });
      // The refusal names the realm the key lacks: the note's.
      assertError(await assign(await keyed(['tag']), n.resource_uri), 403, 'realm_denied', /'probenote'/);
      expectStatus(await assign(await keyed(['tag', 'probenote']), `${n.resource_uri}?from=a-link`), 200);
      expectStatus(await assign(await keyed(['*']), n.resource_uri), 200);
      assert.deepEqual(
        (expectStatus<Note>(await owner.client.get(n.resource_uri), 200).tags as Array<{ name: string }>).map((x) => x.name),
        ['probe tag'],
      );
    });

    it('names the offset when it is sent with a cursor', async () => {
      const first = expectStatus(await owner.client.get(`${NOTES}?limit=1`), 200);
      const res = await owner.client.get(`${first.meta.next}&offset=1`);
      assertError(res, 400, 'invalid_parameter');
      assert.equal(res.body.field, 'offset');
    });
  });
});
