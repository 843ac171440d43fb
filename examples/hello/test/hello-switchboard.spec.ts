import assert from 'node:assert/strict';
import { Translator } from '@werkbank/sdk/node';
import { startTestServer, type TestClient, type TestServer } from '@werkbank/testing/node';

// #region start-test-server
/** The plugins hello's parts need: switchboards to run the function (with the Magazine it uses), types for the port types. */
const PLUGINS = ['types', 'magazine', 'switchboards', 'hello'];

type Obj = { id: number; resource_uri: string; [field: string]: any };

async function created(reply: Promise<{ status: number; body: any }>): Promise<Obj> {
  const { status, body } = await reply;
  assert.equal(status, 201, JSON.stringify(body));
  return body as Obj;
}

/** The channel on which the switchboards plugin announces changes of a switchboard and its runs. */
const SWITCHBOARD_EVENTS = 'werkbank_switchboard';

/** Runs the switchboard and returns the status its execution ended with (woken by the switchboard's live events, no polling). */
async function runToEnd(t: TestServer, c: TestClient, sb: Obj): Promise<string> {
  const started = await c.post(`${sb.resource_uri}run/`, {});
  assert.equal(started.status, 202, JSON.stringify(started.body));
  for (;;) {
    let changed!: () => void;
    const event = new Promise<void>((res) => (changed = res));
    const sub = t.server.bus.subscribe(SWITCHBOARD_EVENTS, (msg) => {
      if (msg.resource_uri === sb.resource_uri) changed();
    });
    try {
      const execution = (await c.get((started.body as Obj).resource_uri)).body as Obj;
      if (execution.status !== 'started') return execution.status as string;
      await event;
    } finally {
      sub.dispose();
    }
  }
}

/**
 * A switchboard with one hello.greet node (name and count as the node's own values) writing into a
 * string frame; runs it and returns the frame's items.
 */
async function greetOnSwitchboard(
  t: TestServer,
  c: TestClient,
  name: string,
  count: number,
): Promise<{ status: string; items: unknown[]; exception: unknown }> {
  const sb = await created(c.post('/api/v1/switchboard/', { name: `greet ${name}` }));
  const node = await created(
    c.post('/api/v1/node/', {
      switchboard: sb.resource_uri,
      func: 'hello.greet',
      ports: [
        { name: 'name', default_value: { value: name } },
        { name: 'count', default_value: { value: count } },
      ],
    }),
  );
  const frame = await created(c.post('/api/v1/frame/', { switchboard: sb.resource_uri, content_type: 'string' }));
  await created(
    c.post('/api/v1/link/', { node: node.resource_uri, frame: frame.resource_uri, name: 'greetings', is_input: false }),
  );
  const status = await runToEnd(t, c, sb);
  const items = (await c.get(`/api/v1/frame/${frame.id}/content/?limit=1000`)).body as { objects: unknown[] };
  const after = (await c.get(node.resource_uri)).body as Obj;
  return { status, items: items.objects, exception: after.runinfo.exception };
}

describe('hello example on a server: its function on a switchboard, its datum type', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: TestClient;
  before(async () => {
    t = await startTestServer({ examples: true, plugins: PLUGINS });
    admin = await t.admin();
  });
  after(() => t?.close());
  // #endregion start-test-server

  it('lists hello.greet with its ports among the functions', async () => {
    const fn = (await admin.get('/api/v1/function/hello.greet/', { headers: { 'Accept-Language': 'de' } })).body as Obj;
    assert.equal(fn.verbose_name, 'Grüßen');
    assert.deepEqual(
      fn.inputs.map((p: Obj) => [p.name, p.content_type, p.is_optional]),
      [
        ['name', 'string', false],
        ['count', 'int', true],
      ],
    );
  });

  it('runs hello.greet on a switchboard and writes the greetings into the linked frame', async () => {
    const run = await greetOnSwitchboard(t, admin, 'Anna', 2);
    assert.equal(run.status, 'success');
    assert.deepEqual(run.items, [{ value: 'Hello, Anna!' }, { value: 'Hello, Anna!' }]);
  });

  it('fails the node with the plugin’s translated reason when count is out of range', async () => {
    const run = await greetOnSwitchboard(t, admin, 'Anna', 5000);
    assert.equal(run.status, 'failure');
    assert.deepEqual(run.items, []);
    assert.equal(run.exception, 'The count must be a whole number from 0 to 1000.');
  });

  it('sends greeting cards into a depot through the Magazine’s DepotAccess', async () => {
    const depot = await created(admin.post('/api/v1/depot/', { name: 'Karten', content_type: 'hello.greeting_card' }));
    const sb = await created(admin.post('/api/v1/switchboard/', { name: 'send cards' }));
    const names = await created(
      admin.post('/api/v1/frame/', {
        switchboard: sb.resource_uri,
        content_type: 'string',
        content: [{ value: 'Anna' }, { value: 'Ben' }],
      }),
    );
    const node = await created(
      admin.post('/api/v1/node/', {
        switchboard: sb.resource_uri,
        func: 'hello.send_cards',
        ports: [{ name: 'depot', default_value: { value: depot.resource_uri } }],
      }),
    );
    await created(
      admin.post('/api/v1/link/', { node: node.resource_uri, frame: names.resource_uri, name: 'names', is_input: true }),
    );
    assert.equal(await runToEnd(t, admin, sb), 'success');
    const datums = (await admin.get(`/api/v1/datum/by-depot/${depot.id}/?limit=10`)).body as { objects: Obj[] };
    assert.deepEqual(
      datums.objects.map((d) => [d.to, d.text, d.stamps]),
      [
        ['Anna', 'Hello, Anna!', 1],
        ['Ben', 'Hello, Ben!', 1],
      ],
    );
  });

  it('validates greeting cards against the type’s schema', async () => {
    const sb = await created(admin.post('/api/v1/switchboard/', { name: 'cards' }));
    const frame = (content: unknown[]) =>
      admin.post('/api/v1/frame/', { switchboard: sb.resource_uri, content_type: 'hello.greeting_card', content });
    assert.equal((await frame([{ to: 'Anna', text: 'Moin', stamps: 2 }])).status, 201);
    for (const bad of [
      { text: 'no addressee' },
      { to: 'Anna', text: 'Moin', stamps: 11 },
      { to: 'Anna', text: 'x', colour: 'red' },
    ]) {
      const reply = await frame([bad]);
      assert.equal(reply.status, 400, JSON.stringify(bad));
      assert.equal(reply.body.status, 'error');
    }
    const type = (await admin.get('/api/v1/type/hello.greeting_card/')).body as Obj;
    assert.deepEqual(type.template, { to: '', text: '', stamps: 1 });
  });
});

// #region replace-service
describe('hello example on a server with a service replaced by its token', function () {
  this.timeout(60_000);
  let t: TestServer;
  const asked: string[] = [];
  const translator: Translator = {
    translate: (lang, key, params) => {
      asked.push(key);
      return `${lang}:${key}:${String(params?.name ?? '')}`;
    },
  };
  before(async () => {
    t = await startTestServer({ examples: true, plugins: PLUGINS, services: [[Translator, translator]] });
  });
  after(() => t?.close());

  it('hello.greet writes what the replacing Translator answers', async () => {
    const run = await greetOnSwitchboard(t, await t.admin(), 'Ben', 1);
    assert.equal(run.status, 'success');
    assert.deepEqual(run.items, [{ value: 'en:hello:greet.text:Ben' }]);
    assert.ok(asked.includes('hello:greet.text'));
  });
});
// #endregion replace-service
