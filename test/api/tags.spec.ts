import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import {
  assertError,
  createGreeting,
  expectStatus,
  EVENTS,
  GREETINGS,
  TAGS,
  userUri,
  type Client,
  type Greeting,
  type Reply,
} from './api-test-support';

interface Tag {
  id: number;
  resource_uri: string;
  name: string;
  color: string;
  icon?: string;
  intent: 'system' | 'user';
  user: string | null;
  counts: Record<string, number>;
}

/** A 400 with its reason, naming the field or parameter at fault. */
function assertRefused(res: Reply, code: string, reason: string, field: string): void {
  assertError(res, 400, code, reason);
  assert.equal(res.body.field, field);
}

const SUPERUSER_ONLY = 'Only administrators may change or delete user tags.';
const SYSTEM_LOCKED = 'System tags cannot be changed or deleted.';

/** Tag rules (spec 000 §6) and assigning tags to objects (spec 000 §7 assign-to, remove_from). */
describe('tags', () => {
  let t: TestServer;
  let admin: Client;
  let alice: { id: number; client: Client };
  let bob: { id: number; client: Client };
  let seq = 0;

  const newTag = async (c: Client, fields: Partial<Tag> = {}) =>
    expectStatus<Tag>(await c.post(TAGS, { name: `tag ${++seq}`, ...fields }), 201);
  const tagNow = async (tag: Tag) => expectStatus<Tag>(await admin.get(tag.resource_uri), 200);
  const assign = (c: Client, tag: Tag, target: string) =>
    c.patch(`${tag.resource_uri}assign-to/?resource_ids=${encodeURIComponent(target)}`);
  const removeFrom = (c: Client, tag: Tag, target: string) =>
    c.patch(`${tag.resource_uri}remove_from/?object=${encodeURIComponent(target)}`);

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    alice = await t.user();
    bob = await t.user();
  });
  after(async () => {
    await t?.close();
  });

  describe('who may create, change and delete', () => {
    it('lets any signed-in user create a user tag, recorded as theirs', async () => {
      const tag = await newTag(alice.client, { color: '#112233' });
      assert.equal(tag.intent, 'user');
      assert.equal(tag.user, userUri(alice.id));
      assert.equal(tag.color, '#112233');
      assert.deepEqual(tag.counts, {});
      expectStatus(await bob.client.get(tag.resource_uri), 200);
      // The activity feed names the kind in the reader's language.
      for (const [reader, language, label] of [
        [alice, 'en', 'tag'],
        [await t.user(), 'de', 'den Tag'],
      ] as const) {
        expectStatus(await admin.patch(userUri(reader.id), { language }), 200);
        const feed = expectStatus(await reader.client.get(`${EVENTS}?content_kind=tag`), 200).objects as {
          key: string;
          content_object: string;
          content_repr: string;
          content_kind_label: string;
        }[];
        assert.deepEqual(
          feed.filter((e) => e.content_object === tag.resource_uri).map((e) => [e.key, e.content_repr, e.content_kind_label]),
          [['create', tag.name, label]],
        );
      }
    });

    it('refuses a normal user changing or deleting a user tag, even their own (403 with a reason)', async () => {
      const tag = await newTag(alice.client);
      assertError(await alice.client.patch(tag.resource_uri, { name: 'renamed' }), 403, 'permission_denied', SUPERUSER_ONLY);
      assertError(await bob.client.patch(tag.resource_uri, { name: 'renamed' }), 403, 'permission_denied', SUPERUSER_ONLY);
      assertError(await alice.client.delete(tag.resource_uri), 403, 'permission_denied', SUPERUSER_ONLY);
      assert.equal((await tagNow(tag)).name, tag.name);
    });

    it('lets a superuser change and delete a user tag', async () => {
      const tag = await newTag(alice.client);
      assert.equal(
        expectStatus<Tag>(await admin.patch(tag.resource_uri, { name: 'renamed by admin' }), 200).name,
        'renamed by admin',
      );
      expectStatus(await admin.delete(tag.resource_uri), 204);
      assertError(await admin.get(tag.resource_uri), 404, 'not_found');
    });

    it('refuses everybody, superusers too, changing or deleting a system tag', async () => {
      const tag = await newTag(admin, { intent: 'system' });
      assert.equal(tag.intent, 'system');
      for (const c of [admin, alice.client]) {
        assertError(await c.patch(tag.resource_uri, { name: 'renamed' }), 403, 'permission_denied', SYSTEM_LOCKED);
        assertError(await c.delete(tag.resource_uri), 403, 'permission_denied', SYSTEM_LOCKED);
      }
      assert.equal((await tagNow(tag)).name, tag.name);
    });

    it('refuses a normal user creating a system tag, and creates nothing', async () => {
      const name = 'would-be system tag';
      const res = await alice.client.post(TAGS, { name, intent: 'system' });
      assertError(res, 403, 'permission_denied', 'Only administrators may create system tags.');
      assert.equal(expectStatus(await admin.get(`${TAGS}?name=${encodeURIComponent(name)}`), 200).meta.total_count, 0);
    });

    it('refuses a colour that is not a hex value', async () => {
      assertError(await alice.client.post(TAGS, { name: 'badly coloured', color: 'red' }), 400, 'invalid_field', /hex value/);
    });

    it('takes a Blueprint icon and refuses a name that is none, saying what is allowed', async () => {
      assert.equal((await newTag(alice.client, { icon: 'star' } as Partial<Tag>)).icon, 'star');
      const name = 'tag with a made-up icon';
      assertError(
        await alice.client.post(TAGS, { name, icon: 'no-such-icon' }),
        400,
        'invalid_field',
        'The icon must be the name of a Blueprint icon, such as tag, star or flag (see the tag editor).',
      );
      assert.equal(expectStatus(await admin.get(`${TAGS}?name=${encodeURIComponent(name)}`), 200).meta.total_count, 0);
    });
  });

  describe('finding tags', () => {
    const listed = async (c: Client, query: string) =>
      expectStatus<{ objects: Tag[] }>(await c.get(`${TAGS}?${query}`), 200).objects.map((x) => x.name);

    it('lists tags by name unless asked otherwise', async () => {
      for (const name of ['sorted c', 'sorted a', 'sorted b']) await newTag(alice.client, { name });
      assert.deepEqual(await listed(alice.client, 'q=sorted'), ['sorted a', 'sorted b', 'sorted c']);
    });

    it('?realm= lists the tags used on objects of that kind which the caller may read', async () => {
      const mine = await createGreeting(alice.client, { name: 'realm: alice’s greeting' });
      const bobs = await createGreeting(bob.client, { name: 'realm: bob’s greeting' });
      const onMine = await newTag(alice.client, { name: 'realm on alice’s' });
      const onBobs = await newTag(bob.client, { name: 'realm on bob’s' });
      await newTag(alice.client, { name: 'realm unused' });
      expectStatus(await assign(alice.client, onMine, mine.resource_uri), 200);
      expectStatus(await assign(bob.client, onBobs, bobs.resource_uri), 200);

      assert.deepEqual(await listed(alice.client, 'realm=greeting&q=realm'), [onMine.name]);
      assert.deepEqual(await listed(bob.client, 'realm=greeting&q=realm'), [onBobs.name]);
      assert.deepEqual(await listed(admin, 'realm=greeting&q=realm'), [onMine.name, onBobs.name]);
      assertRefused(
        await alice.client.get(`${TAGS}?realm=user`),
        'invalid_parameter',
        "'user' is not a kind of object that can be tagged.",
        'realm',
      );
    });

    it('?filter=system and ?filter=user tell system tags from user tags', async () => {
      const system = await newTag(admin, { name: 'intent system', intent: 'system' });
      const user = await newTag(alice.client, { name: 'intent user' });
      assert.deepEqual(await listed(alice.client, 'filter=system&q=intent'), [system.name]);
      assert.deepEqual(await listed(alice.client, 'filter=user&q=intent'), [user.name]);
    });

    it('counts each tag’s own objects when several tags are listed together', async () => {
      const [a, b, c] = await Promise.all(
        ['count a', 'count b', 'count c'].map((name) => createGreeting(alice.client, { name })),
      );
      const twice = await newTag(alice.client, { name: 'counted twice' });
      const once = await newTag(alice.client, { name: 'counted once' });
      for (const g of [a, b]) expectStatus(await assign(alice.client, twice, g.resource_uri), 200);
      expectStatus(await assign(alice.client, once, c.resource_uri), 200);
      const tags = expectStatus<{ objects: Tag[] }>(await alice.client.get(`${TAGS}?q=counted`), 200).objects;
      assert.deepEqual(
        tags.map((x) => [x.name, x.counts]),
        [
          ['counted once', { greeting: 1 }],
          ['counted twice', { greeting: 2 }],
        ],
      );
    });

    it('?tag= with several ids finds the objects carrying every one of them', async () => {
      const [both, one] = await Promise.all(['filter both', 'filter one'].map((name) => createGreeting(alice.client, { name })));
      const first = await newTag(alice.client, { name: 'filter first' });
      const second = await newTag(alice.client, { name: 'filter second' });
      for (const g of [both, one]) expectStatus(await assign(alice.client, first, g.resource_uri), 200);
      expectStatus(await assign(alice.client, second, both.resource_uri), 200);
      const found = async (tags: string) =>
        expectStatus<{ objects: Greeting[] }>(await alice.client.get(`${GREETINGS}?tag=${encodeURIComponent(tags)}`), 200)
          .objects.map((g) => g.name)
          .sort();
      assert.deepEqual(await found(`${first.id}, ${second.id}`), ['filter both']);
      assert.deepEqual(await found(` ${first.id} `), ['filter both', 'filter one']);
      // Up to nine digits are an id (one no tag has finds nothing).
      for (const unknown of ['1234', '123456789']) assert.deepEqual(await found(unknown), []);
      for (const bad of [`${first.id}x`, `x${first.id}`, '1234567890', `${first.id};${second.id}`])
        assertError(await alice.client.get(`${GREETINGS}?tag=${encodeURIComponent(bad)}`), 400, 'invalid_parameter');
    });

    it('refuses a ?tag= filter that is not tag ids, and on a list whose objects cannot be tagged', async () => {
      const users = expectStatus<{ objects: Record<string, unknown>[] }>(await admin.get('/api/v1/user/'), 200).objects;
      assert.ok(users.length > 0);
      assert.ok(
        users.every((u) => !('tags' in u)),
        'objects that cannot be tagged carry no tags',
      );
      assertRefused(
        await alice.client.get(`${GREETINGS}?tag=first`),
        'invalid_parameter',
        'The tag filter must be tag ids separated by commas.',
        'tag',
      );
      assertRefused(await admin.get('/api/v1/user/?tag=1'), 'unknown_filter', "'tag' is not a filter of this list.", 'tag');
    });
  });

  describe('assigning tags to objects', () => {
    it('assign-to puts the tag on the greeting: the greeting shows it, ?tag= finds it and the tag counts it', async () => {
      const g = await createGreeting(alice.client, { name: 'to be tagged' });
      await createGreeting(alice.client, { name: 'stays untagged' });
      const tag = await newTag(alice.client);

      const res = expectStatus(await assign(alice.client, tag, g.resource_uri), 200);

      assert.equal(res.assigned, 1);
      const shown = expectStatus<Greeting>(await alice.client.get(g.resource_uri), 200);
      assert.deepEqual(
        shown.tags?.map((x) => [x.id, x.name]),
        [[tag.id, tag.name]],
      );
      const filtered = expectStatus(await alice.client.get(`${GREETINGS}?tag=${tag.id}`), 200);
      assert.deepEqual(
        filtered.objects.map((o: Greeting) => o.id),
        [g.id],
      );
      assert.deepEqual((await tagNow(tag)).counts, { greeting: 1 });
    });

    it('assigning the same tag twice keeps one assignment', async () => {
      const g = await createGreeting(alice.client, { name: 'tagged twice' });
      const tag = await newTag(alice.client);
      expectStatus(await assign(alice.client, tag, g.resource_uri), 200);
      assert.equal(expectStatus(await assign(alice.client, tag, g.resource_uri), 200).assigned, 0);
      assert.deepEqual((await tagNow(tag)).counts, { greeting: 1 });
    });

    it('remove_from takes the tag off the greeting', async () => {
      const g = await createGreeting(alice.client, { name: 'tagged, then untagged' });
      const tag = await newTag(alice.client);
      expectStatus(await assign(alice.client, tag, g.resource_uri), 200);

      assert.equal(expectStatus(await removeFrom(alice.client, tag, g.resource_uri), 200).removed, 1);

      assert.deepEqual(expectStatus<Greeting>(await alice.client.get(g.resource_uri), 200).tags, []);
      assert.equal(expectStatus(await alice.client.get(`${GREETINGS}?tag=${tag.id}`), 200).meta.total_count, 0);
      assert.deepEqual((await tagNow(tag)).counts, {});
    });

    it('refuses tagging a greeting the user may not read (404) or only read (403), and assigns nothing', async () => {
      const g = await createGreeting(alice.client, { name: 'alice’s private greeting' });
      const tag = await newTag(bob.client);

      assertError(await assign(bob.client, tag, g.resource_uri), 404, 'not_found');
      expectStatus(await alice.client.patch(g.resource_uri, { permissions: [{ user: userUri(bob.id), perms: ['read'] }] }), 200);
      assertError(await assign(bob.client, tag, g.resource_uri), 403, 'permission_denied');

      assert.deepEqual((await tagNow(tag)).counts, {});
      assert.deepEqual(expectStatus<Greeting>(await alice.client.get(g.resource_uri), 200).tags, []);
    });

    it('refuses removing a tag from a greeting the user may only read', async () => {
      const g = await createGreeting(alice.client, { name: 'tag stays on' });
      const tag = await newTag(alice.client);
      expectStatus(await assign(alice.client, tag, g.resource_uri), 200);
      expectStatus(await alice.client.patch(g.resource_uri, { permissions: [{ user: userUri(bob.id), perms: ['read'] }] }), 200);

      assertError(await removeFrom(bob.client, tag, g.resource_uri), 403, 'permission_denied');
      assert.deepEqual((await tagNow(tag)).counts, { greeting: 1 });
    });

    it('tags several objects named with spaces around them, and shows each object its own tags', async () => {
      const [a, b, c] = await Promise.all(
        ['several a', 'several b', 'several c'].map((name) => createGreeting(alice.client, { name })),
      );
      const onAll = await newTag(alice.client, { name: 'on a and b' });
      const onC = await newTag(alice.client, { name: 'on c' });
      const res = expectStatus(
        await alice.client.patch(
          `${onAll.resource_uri}assign-to/?resource_ids=${encodeURIComponent(` ${a.resource_uri} , ${b.resource_uri} `)}`,
        ),
        200,
      );
      assert.deepEqual(res, { status: 'ok', assigned: 2 });
      expectStatus(await assign(alice.client, onC, c.resource_uri), 200);
      const listed = expectStatus<{ objects: Greeting[] }>(await alice.client.get(`${GREETINGS}?q=several`), 200).objects;
      assert.deepEqual(Object.fromEntries(listed.map((g) => [g.name, g.tags?.map((x) => [x.name, x.resource_uri])])), {
        'several a': [[onAll.name, onAll.resource_uri]],
        'several b': [[onAll.name, onAll.resource_uri]],
        'several c': [[onC.name, onC.resource_uri]],
      });
    });

    it('records tagging and untagging in the object’s activity feed, and nothing when nothing changed', async () => {
      const g = await createGreeting(alice.client, { name: 'tagged in the feed' });
      const tag = await newTag(alice.client, { name: 'feed tag' });
      const feed = async () =>
        (
          expectStatus(await admin.get(`${EVENTS}?content_kind=greeting`), 200).objects as {
            key: string;
            content_object: string;
            metadata: Record<string, unknown> | null;
          }[]
        ).filter((e) => e.content_object === g.resource_uri);
      const before = (await feed()).length;
      expectStatus(await assign(alice.client, tag, g.resource_uri), 200);
      assert.deepEqual(expectStatus(await removeFrom(alice.client, tag, g.resource_uri), 200), { status: 'ok', removed: 1 });
      assert.deepEqual(expectStatus(await removeFrom(alice.client, tag, g.resource_uri), 200), { status: 'ok', removed: 0 });
      const entries = await feed();
      assert.deepEqual(
        entries.slice(0, entries.length - before).map((e) => [e.key, e.metadata]),
        [
          ['update', { untagged: tag.name, tag: tag.resource_uri }],
          ['update', { tagged: tag.name, tag: tag.resource_uri }],
        ],
      );
    });

    it('refuses assign-to and remove_from without an object to tag', async () => {
      const tag = await newTag(alice.client);
      assertRefused(
        await alice.client.patch(`${tag.resource_uri}assign-to/`),
        'invalid_parameter',
        'Name at least one object to tag.',
        'resource_ids',
      );
      assertRefused(
        await alice.client.patch(`${tag.resource_uri}remove_from/?object=`),
        'invalid_parameter',
        'Name at least one object to tag.',
        'object',
      );
    });

    it('refuses an address of a kind that cannot be tagged', async () => {
      const tag = await newTag(alice.client);
      assertRefused(
        await assign(alice.client, tag, `/api/v1/user/${alice.id}/`),
        'not_taggable',
        `Tags cannot be assigned to /api/v1/user/${alice.id}/.`,
        'resource_ids',
      );
    });

    it('deleting a greeting removes its tag assignments', async () => {
      const g = await createGreeting(alice.client, { name: 'deleted while tagged' });
      const tag = await newTag(alice.client);
      expectStatus(await assign(alice.client, tag, g.resource_uri), 200);
      assert.deepEqual((await tagNow(tag)).counts, { greeting: 1 });

      expectStatus(await alice.client.delete(g.resource_uri), 204);

      assert.deepEqual((await tagNow(tag)).counts, {});
      const [{ n }] = await t.server.db.dataSource.query(
        `SELECT count(*)::int AS n FROM werkbank_tag_assignment WHERE kind = 'greeting' AND object_id = $1`,
        [g.id],
      );
      assert.equal(n, 0);
    });
  });
});
