import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import {
  assertError,
  createGreeting,
  expectStatus,
  GREETINGS,
  names,
  TAGS,
  type Client,
  type Greeting,
  type Reply,
} from './api-test-support';

const BODY_LIMIT = 2048;

/** The shared resource layer (DESIGN §3, spec 000 §7 "Generic"): list queries and input validation. */
describe('resource layer', () => {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ examples: true, config: { bodyLimit: BODY_LIMIT } });
    admin = await t.admin();
  });
  after(async () => {
    await t?.close();
  });

  describe('lists: paging, search, ordering, filters', () => {
    let lister: Client;
    const special = ['Alpha Greeting', 'alpine view', '100% sure', '100 percent', 'snake_case', 'snakeXcase'];
    const ordered = ['order-test c', 'order-test a', 'order-test b'];
    const fillers = Array.from({ length: 21 }, (_, i) => `filler ${String(i + 1).padStart(2, '0')}`);
    const total = special.length + ordered.length + fillers.length + 1;
    const list = async (query: string, c: Client = lister) => expectStatus(await c.get(`${GREETINGS}?${query}`), 200);

    before(async () => {
      lister = (await t.user()).client;
      for (const name of [...special, ...ordered, ...fillers]) await createGreeting(lister, { name });
      await createGreeting(lister, { name: 'with a message', message: 'a hidden Needle inside' });
    });

    it('pages with offset and limit and reports offset, limit and total_count', async () => {
      const all = names(await lister.get(`${GREETINGS}?order_by=name&limit=1000`));
      assert.equal(all.length, total);

      const page = await list('order_by=name&offset=5&limit=5');

      assert.deepEqual(page.meta, { offset: 5, limit: 5, total_count: total, next: page.meta.next });
      assert.match(
        page.meta.next,
        /^\/api\/v1\/greeting\/\?order_by=name&limit=5&after=[\w-]+\.[\w-]+$/,
        'the next page by cursor',
      );
      assert.deepEqual(
        page.objects.map((o: Greeting) => o.name),
        all.slice(5, 10),
      );
    });

    it('gives 20 objects when no limit is asked for', async () => {
      const page = await list('');
      assert.equal(page.objects.length, 20);
      assert.deepEqual(page.meta, { offset: 0, limit: 20, total_count: total, next: page.meta.next });
      assert.ok(page.meta.next, 'more than 20: a next page');
    });

    it('caps the limit at 1000', async () => {
      const page = await list('limit=5000');
      assert.equal(page.meta.limit, 1000);
      assert.equal(page.objects.length, total);
    });

    it('gives an empty page with the total when the offset is past the end', async () => {
      const page = await list('offset=500');
      assert.deepEqual(page.objects, []);
      assert.equal(page.meta.total_count, total);
    });

    it('searches name and message case-insensitively with q', async () => {
      assert.deepEqual(names(await lister.get(`${GREETINGS}?q=ALP`)).sort(), ['Alpha Greeting', 'alpine view']);
      assert.deepEqual(names(await lister.get(`${GREETINGS}?q=needle`)), ['with a message']);
      assert.equal((await list('q=nothing-matches-this')).meta.total_count, 0);
    });

    it('matches % and _ in q literally, not as wildcards', async () => {
      assert.deepEqual(names(await lister.get(`${GREETINGS}?q=${encodeURIComponent('%')}`)), ['100% sure']);
      assert.deepEqual(names(await lister.get(`${GREETINGS}?q=${encodeURIComponent('0% s')}`)), ['100% sure']);
      assert.deepEqual(names(await lister.get(`${GREETINGS}?q=_`)), ['snake_case']);
    });

    it('orders by name ascending and descending with order_by', async () => {
      assert.deepEqual(names(await lister.get(`${GREETINGS}?q=order-test&order_by=name`)), [
        'order-test a',
        'order-test b',
        'order-test c',
      ]);
      assert.deepEqual(names(await lister.get(`${GREETINGS}?q=order-test&order_by=-name`)), [
        'order-test c',
        'order-test b',
        'order-test a',
      ]);
    });

    it('narrows a list by a declared filter field (tags by intent)', async () => {
      const user = lister;
      expectStatus(await user.post(TAGS, { name: 'rl-user-tag' }), 201);
      expectStatus(await admin.post(TAGS, { name: 'rl-system-tag', intent: 'system' }), 201);

      assert.deepEqual(names(await user.get(`${TAGS}?q=rl-&intent=system`)), ['rl-system-tag']);
      assert.deepEqual(names(await user.get(`${TAGS}?q=rl-&intent=user`)), ['rl-user-tag']);
      assert.deepEqual(names(await user.get(`${TAGS}?q=rl-&filter=system`)), ['rl-system-tag']);
    });

    it('lists only the caller’s favourites with filter=favorites', async () => {
      const all = (await list('limit=1000')).objects as Greeting[];
      const alpha = all.find((g) => g.name === 'Alpha Greeting')!;
      const snake = all.find((g) => g.name === 'snake_case')!;
      expectStatus(await lister.get(`${alpha.resource_uri}favor/`), 200);
      expectStatus(await lister.get(`${snake.resource_uri}favor/`), 200);
      expectStatus(await admin.get(`${all[0].resource_uri}favor/`), 200);

      const favourites = await list('filter=favorites&order_by=name');

      assert.deepEqual(
        favourites.objects.map((g: Greeting) => g.name),
        ['Alpha Greeting', 'snake_case'],
      );
      assert.ok(favourites.objects.every((g: Greeting) => g.favored));
      assert.equal(favourites.meta.total_count, 2);
    });

    it('lists only the caller’s own objects with filter=mine, even for a superuser', async () => {
      await createGreeting(admin, { name: 'the admin’s own' });
      assert.deepEqual(names(await admin.get(`${GREETINGS}?filter=mine`)), ['the admin’s own']);
      assert.ok(expectStatus(await admin.get(`${GREETINGS}?limit=1000`), 200).meta.total_count > 1);
    });
  });

  describe('bad input: 400 with status, reason and code, and nothing changes', () => {
    let writer: Client;
    let greeting: Greeting;
    let tag: { id: number; resource_uri: string; intent: string };
    const state = async () => ({
      greetings: expectStatus(await writer.get(`${GREETINGS}?limit=1000`), 200),
      tag: expectStatus(await admin.get(tag.resource_uri), 200),
    });
    /** Runs a refused request and checks that the writer's greetings and the tag are as before. */
    const refusedWithoutChange = async (
      request: () => Promise<Reply>,
      status: number,
      code: string,
      reason?: string | RegExp,
    ) => {
      const before = await state();
      const res = await request();
      assertError(res, status, code, reason);
      assert.deepEqual(await state(), before);
      return res;
    };

    before(async () => {
      writer = (await t.user()).client;
      greeting = await createGreeting(writer, { name: 'stable', message: 'as created' });
      tag = expectStatus(await admin.post(TAGS, { name: 'stable tag' }), 201);
    });

    it('refuses a malformed JSON body', async () => {
      await refusedWithoutChange(
        () => writer.request('POST', GREETINGS, undefined, { raw: '{"name": "half' }),
        400,
        'malformed_json',
      );
      await refusedWithoutChange(
        () => writer.request('PATCH', greeting.resource_uri, undefined, { raw: '{"message": }' }),
        400,
        'malformed_json',
      );
    });

    it('refuses a JSON array as body', async () => {
      await refusedWithoutChange(() => writer.request('POST', GREETINGS, [{ name: 'in an array' }]), 400, 'not_an_object');
      await refusedWithoutChange(() => writer.request('PATCH', greeting.resource_uri, ['message']), 400, 'not_an_object');
    });

    it('refuses an unknown field and names it', async () => {
      const res = await refusedWithoutChange(
        () => writer.post(GREETINGS, { name: 'with colour', colour: 'red' }),
        400,
        'unknown_field',
        "'colour' is not a field of this object.",
      );
      assert.equal(res.body.field, 'colour');
      await refusedWithoutChange(() => writer.patch(greeting.resource_uri, { colour: 'red' }), 400, 'unknown_field');
    });

    it('refuses a read-only field', async () => {
      await refusedWithoutChange(
        () => writer.patch(greeting.resource_uri, { message: 'sneaked in', created: '2000-01-01T00:00:00.000Z' }),
        400,
        'read_only_field',
        "The field 'created' cannot be changed.",
      );
      await refusedWithoutChange(
        () => writer.post(GREETINGS, { name: 'backdated', created: '2000-01-01T00:00:00.000Z' }),
        400,
        'read_only_field',
      );
    });

    it('refuses a value of the wrong type and names the field', async () => {
      const res = await refusedWithoutChange(
        () => writer.patch(greeting.resource_uri, { name: 5 }),
        400,
        'invalid_field',
        "The field 'name' must be of type string.",
      );
      assert.equal(res.body.field, 'name');
      await refusedWithoutChange(() => writer.post(GREETINGS, { name: 5 }), 400, 'invalid_field');
      await refusedWithoutChange(() => writer.patch(greeting.resource_uri, { name: null }), 400, 'invalid_field');
    });

    it('refuses a missing required field and a too long value', async () => {
      await refusedWithoutChange(
        () => writer.post(GREETINGS, { message: 'nameless' }),
        400,
        'invalid_field',
        "The field 'name' is required.",
      );
      await refusedWithoutChange(() => writer.post(GREETINGS, { name: 'x'.repeat(201) }), 400, 'invalid_field', /at most 200/);
    });

    it('refuses what a plugin’s field check refuses, with the plugin’s reason', async () => {
      await refusedWithoutChange(
        () => writer.patch(greeting.resource_uri, { message: 'HELLO WORLD' }),
        400,
        'invalid_field',
        'A greeting must not be written in capitals only.',
      );
    });

    it('refuses a create-only field on PATCH (a tag’s intent)', async () => {
      await refusedWithoutChange(
        () => admin.patch(tag.resource_uri, { intent: 'system' }),
        400,
        'locked_field',
        "The field 'intent' cannot be changed once the object exists.",
      );
    });

    it('refuses a body over the configured limit with 413, and accepts one under it', async () => {
      await refusedWithoutChange(
        () => writer.post(GREETINGS, { name: 'too big', message: 'a'.repeat(BODY_LIMIT + 100) }),
        413,
        'body_too_large',
        `The request body is larger than the allowed ${BODY_LIMIT} bytes.`,
      );
      await refusedWithoutChange(
        () => writer.patch(greeting.resource_uri, { message: 'a'.repeat(BODY_LIMIT + 100) }),
        413,
        'body_too_large',
      );
      await createGreeting(writer, { name: 'just fits', message: 'a'.repeat(BODY_LIMIT - 100) });
    });

    it('refuses an unknown order_by', async () => {
      await refusedWithoutChange(
        () => writer.get(`${GREETINGS}?order_by=message`),
        400,
        'unknown_order',
        "This list cannot be ordered by 'message'.",
      );
      await refusedWithoutChange(() => writer.get(`${GREETINGS}?order_by=-nonsense`), 400, 'unknown_order');
    });

    it('refuses an unknown filter parameter and an unknown named filter', async () => {
      await refusedWithoutChange(
        () => writer.get(`${GREETINGS}?colour=red`),
        400,
        'unknown_filter',
        "'colour' is not a filter of this list.",
      );
      await refusedWithoutChange(() => writer.get(`${GREETINGS}?filter=nonsense`), 400, 'unknown_filter');
    });

    it('refuses a filter value of the wrong type', async () => {
      await refusedWithoutChange(() => writer.get(`${TAGS}?user=somebody`), 400, 'invalid_field');
    });

    it('refuses a non-numeric offset or limit', async () => {
      await refusedWithoutChange(
        () => writer.get(`${GREETINGS}?offset=ten`),
        400,
        'invalid_parameter',
        "The parameter 'offset' must be a whole number of 0 or more.",
      );
      await refusedWithoutChange(() => writer.get(`${GREETINGS}?limit=-1`), 400, 'invalid_parameter');
    });
  });
});
