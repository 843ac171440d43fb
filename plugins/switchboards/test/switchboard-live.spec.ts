import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus, userUri, type Client } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  link,
  newSwitchboard,
  NOTES,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  SWITCHBOARDS,
  type Obj,
} from './switchboard-support';

interface Message {
  type: string;
  resource_uri: string;
  fields?: Record<string, any>;
  [key: string]: any;
}

/**
 * A live connection that keeps every message it receives. `waitFor` resolves with the first
 * message from position `from` on that matches, as soon as it arrives; it fails when the socket
 * closes first.
 */
class Live {
  readonly messages: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];
  private closeInfo?: { code: number; reason: string };

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString()) as Message);
      this.wake();
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code: number, reason: Buffer) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
        this.wake();
      }),
    );
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** The position of the next message (a marker for `waitFor`). */
  mark(): number {
    return this.messages.length;
  }

  async waitFor(match: (m: Message) => boolean, from = 0, what = 'a message'): Promise<Message> {
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      if (this.closeInfo) {
        throw new Error(`closed (${this.closeInfo.code}) before ${what}; got ${JSON.stringify(this.messages)}`);
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.ws.close();
  }
}

const cookieHeader = (client: Client) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** Live updates of a switchboard's canvas (spec 000 §7 "Live connections"). */
describe('Switchboard live channels', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: { id: number; client: Client };
  let bob: { id: number; client: Client };
  const sockets: Live[] = [];
  const logs: string[] = [];

  before(async () => {
    t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS, logs });
    alice = await t.user();
    bob = await t.user();
  });
  afterEach(function () {
    for (const s of sockets.splice(0)) s.close();
    if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    logs.length = 0;
  });
  after(() => t?.close());

  /** Opens a channel as the client; resolves once the socket is open (messages are kept from the start). */
  function open(path: string, client: Client, id: string | number): Promise<Live> {
    const url = `${t.url.replace('http', 'ws')}${path}?switchboard_id=${encodeURIComponent(String(id))}`;
    const ws = new WebSocket(url, { headers: { Origin: t.url, Cookie: cookieHeader(client) } });
    const live = new Live(ws);
    sockets.push(live);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(live));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Opens a channel and waits for its SUBSCRIBED message (changes from then on are delivered). */
  async function subscribe(path: string, client: Client, sb: Obj): Promise<Live> {
    const live = await open(path, client, sb.id);
    const first = await live.waitFor(() => true, 0, 'SUBSCRIBED');
    assert.deepEqual(first, { type: 'SUBSCRIBED', resource_uri: sb.resource_uri });
    return live;
  }

  const event = (type: string, uri: string) => (m: Message) => m.type === type && m.resource_uri === uri;

  describe('/ws/status_updates', () => {
    it('sends _INSERT, UPDATE and _DELETE of nodes, frames, links and notes with their addresses', async () => {
      const sb = await newSwitchboard(alice.client);
      const live = await subscribe('/ws/status_updates', alice.client, sb);
      const c = alice.client;

      const frame = await addFrame(c, sb, 'string', [{ value: 'x' }]);
      await live.waitFor(event('FRAME_INSERT', frame.resource_uri), 0, 'FRAME_INSERT');
      const node = await addNode(c, sb, 'string.upper');
      await live.waitFor(event('NODE_INSERT', node.resource_uri), 0, 'NODE_INSERT');
      const l = await link(c, node, 'value', frame, true);
      await live.waitFor(event('LINK_INSERT', l.resource_uri), 0, 'LINK_INSERT');
      const note = expectStatus<Obj>(await c.post(NOTES, { switchboard: sb.resource_uri, text: 'first' }), 201);
      await live.waitFor(event('NOTE_INSERT', note.resource_uri), 0, 'NOTE_INSERT');

      expectStatus(await c.patch(note.resource_uri, { text: 'second', ui_x: 40 }), 200);
      const noteUpdate = await live.waitFor(event('UPDATE', note.resource_uri), 0, 'the note’s UPDATE');
      assert.equal(noteUpdate.fields?.text, 'second');
      assert.equal(noteUpdate.fields?.ui_x, 40);
      expectStatus(await c.patch(frame.resource_uri, { content: [{ value: 'a' }, { value: 'b' }] }), 200);
      const frameUpdate = await live.waitFor(event('UPDATE', frame.resource_uri), 0, 'the frame’s UPDATE');
      assert.equal(frameUpdate.fields?.size, 2);

      // A link into the taken slot replaces the old one: its deletion is announced too.
      const other = await addFrame(c, sb, 'string');
      const replacing = await link(c, node, 'value', other, true);
      await live.waitFor(event('LINK_DELETE', l.resource_uri), 0, 'LINK_DELETE of the replaced link');
      await live.waitFor(event('LINK_INSERT', replacing.resource_uri), 0, 'LINK_INSERT of the new link');

      expectStatus(await c.delete(replacing.resource_uri), 204);
      await live.waitFor(event('LINK_DELETE', replacing.resource_uri), 0, 'LINK_DELETE');
      expectStatus(await c.delete(note.resource_uri), 204);
      await live.waitFor(event('NOTE_DELETE', note.resource_uri), 0, 'NOTE_DELETE');
      expectStatus(await c.delete(node.resource_uri), 204);
      await live.waitFor(event('NODE_DELETE', node.resource_uri), 0, 'NODE_DELETE');
      expectStatus(await c.delete(frame.resource_uri), 204);
      await live.waitFor(event('FRAME_DELETE', frame.resource_uri), 0, 'FRAME_DELETE');
    });

    it('sends nothing of other switchboards, and nothing of a change that was refused', async () => {
      const sb = await newSwitchboard(alice.client);
      const elsewhere = await newSwitchboard(alice.client);
      const live = await subscribe('/ws/status_updates', alice.client, sb);
      const from = live.mark();
      const foreign = await addNode(alice.client, elsewhere, 'string.upper');
      const ints = await addFrame(alice.client, sb, 'int', [{ value: 1 }]);
      const upper = await addNode(alice.client, sb, 'string.upper');
      assert.equal(
        (
          await alice.client.post('/api/v1/link/', {
            node: upper.resource_uri,
            frame: ints.resource_uri,
            name: 'value',
            is_input: true,
          })
        ).status,
        400,
      );
      const marker = await addFrame(alice.client, sb, 'string');
      await live.waitFor(event('FRAME_INSERT', marker.resource_uri), from, 'the marker frame');
      const seen = live.messages.slice(from);
      assert.ok(!seen.some((m) => m.resource_uri === foreign.resource_uri), JSON.stringify(seen));
      assert.ok(!seen.some((m) => m.type.startsWith('LINK')), JSON.stringify(seen));
      assert.deepEqual(
        seen.map((m) => [m.type, m.resource_uri]),
        [
          ['FRAME_INSERT', ints.resource_uri],
          ['NODE_INSERT', upper.resource_uri],
          ['FRAME_INSERT', marker.resource_uri],
        ],
      );
    });

    it('follows a run: node status waiting → started → success, output frame size, switchboard status', async () => {
      const sb = await newSwitchboard(alice.client);
      const a = await addFrame(alice.client, sb, 'string', [{ value: 'x' }, { value: 'y' }, { value: 'z' }]);
      const b = await addFrame(alice.client, sb, 'string');
      const upper = await addNode(alice.client, sb, 'string.upper');
      await link(alice.client, upper, 'value', a, true);
      await link(alice.client, upper, 'result', b, false);
      const live = await subscribe('/ws/status_updates', alice.client, sb);
      const from = live.mark();
      const exec = await runAndWait(t, alice.client, sb);
      assert.equal(exec.status, 'success');
      await live.waitFor(
        (m) => m.resource_uri === sb.resource_uri && m.fields?.status === 'success',
        from,
        'switchboard success',
      );

      const statuses = live.messages
        .slice(from)
        .filter((m) => m.type === 'UPDATE' && m.resource_uri === upper.resource_uri && m.fields?.status)
        .map((m) => m.fields!.status);
      assert.deepEqual(statuses, ['waiting', 'started', 'success']);
      const size = await live.waitFor((m) => m.type === 'UPDATE' && m.resource_uri === b.resource_uri, from, 'b’s UPDATE');
      assert.equal(size.fields?.size, 3);
      assert.match(String(size.fields?.text_repr), /X/);
      const sbStatuses = live.messages
        .slice(from)
        .filter((m) => m.resource_uri === sb.resource_uri && m.fields?.status)
        .map((m) => m.fields!.status);
      assert.deepEqual(sbStatuses, ['started', 'success']);
    });

    it('closes with 4404 for a user who may not read the switchboard, sending nothing; a View grant opens it', async () => {
      const sb = await newSwitchboard(alice.client);
      const live = await open('/ws/status_updates', bob.client, sb.id);
      const { code } = await live.closed;
      assert.equal(code, 4404);
      assert.deepEqual(live.messages, []);

      expectStatus(await alice.client.patch(sb.resource_uri, { permissions: [{ user: userUri(bob.id), perms: ['read'] }] }), 200);
      const granted = await subscribe('/ws/status_updates', bob.client, sb);
      const node = await addNode(alice.client, sb, 'string.upper');
      await granted.waitFor(event('NODE_INSERT', node.resource_uri), 0, 'NODE_INSERT for the reader');
    });

    it('closes a reader whose grant is removed with 4404, sending nothing after the change', async () => {
      const sb = await newSwitchboard(alice.client);
      const grant = (perms: string[]) =>
        alice.client.patch(sb.resource_uri, { permissions: perms.length ? [{ user: userUri(bob.id), perms }] : [] });
      expectStatus(await grant(['read']), 200);
      const live = await subscribe('/ws/status_updates', bob.client, sb);
      expectStatus(await alice.client.patch(sb.resource_uri, { name: 'Renamed while watched' }), 200);
      const renamed = await live.waitFor(event('UPDATE', sb.resource_uri), 0, 'the switchboard’s UPDATE');
      assert.equal(renamed.fields?.name, 'Renamed while watched');

      const from = live.mark();
      expectStatus(await grant([]), 200);
      const node = await addNode(alice.client, sb, 'string.upper');
      const leaked = await live.waitFor(event('NODE_INSERT', node.resource_uri), from, 'the closing').then(
        () => true,
        () => false,
      );
      assert.equal(leaked, false, 'the former reader received a change made after the grant was removed');
      const { code } = await live.closed;
      assert.equal(code, 4404);
      assert.deepEqual(live.messages.slice(from), []);
    });

    it('closes with 4404 for an unknown or malformed switchboard id', async () => {
      for (const id of ['999999', 'abc', '', '-1', '1.5', '12345678901']) {
        const live = await open('/ws/status_updates', alice.client, id);
        const { code } = await live.closed;
        assert.equal(code, 4404, `id ${JSON.stringify(id)}`);
        assert.deepEqual(live.messages, []);
      }
    });

    it('refuses an upgrade without a session or from a foreign origin', async () => {
      const sb = await newSwitchboard(alice.client);
      await assert.rejects(open('/ws/status_updates', t.client(), sb.id), /refused 401/);
      const url = `${t.url.replace('http', 'ws')}/ws/status_updates?switchboard_id=${sb.id}`;
      const ws = new WebSocket(url, { headers: { Origin: 'http://evil.example', Cookie: cookieHeader(alice.client) } });
      await assert.rejects(
        new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
        }),
        /refused 403/,
      );
    });
  });

  describe('presence on /ws/status_updates', () => {
    it('tells the others who has the switchboard open and what they selected, and when they leave', async () => {
      const sb = await newSwitchboard(alice.client);
      expectStatus(await alice.client.patch(sb.resource_uri, { permissions: [{ user: userUri(bob.id), perms: ['read'] }] }), 200);
      const node = await addNode(alice.client, sb, 'string.upper');
      const a = await subscribe('/ws/status_updates', alice.client, sb);
      const b = await subscribe('/ws/status_updates', bob.client, sb);
      // Alice learns of Bob's arrival, Bob of Alice who was already there.
      const bobHere = await a.waitFor((m) => m.type === 'PRESENCE' && m.user === userUri(bob.id), 0, 'Bob’s presence');
      await b.waitFor((m) => m.type === 'PRESENCE' && m.user === userUri(alice.id), 0, 'Alice’s presence');
      assert.equal(bobHere.selected, null);
      assert.ok(typeof bobHere.name === 'string' && bobHere.name.length > 0);

      const from = b.mark();
      a.ws.send(JSON.stringify({ type: 'PRESENCE', selected: node.resource_uri }));
      const sel = await b.waitFor((m) => m.type === 'PRESENCE' && m.selected === node.resource_uri, from, 'the selection');
      assert.equal(sel.user, userUri(alice.id));
      // Nothing but canvas addresses is passed on; nobody hears about themselves.
      a.ws.send(JSON.stringify({ type: 'PRESENCE', selected: '<img src=x onerror=alert(1)>' }));
      a.ws.send('not json');
      assert.equal(a.messages.filter((m) => m.type === 'PRESENCE' && m.user === userUri(alice.id)).length, 0);

      b.close();
      await a.waitFor((m) => m.type === 'PRESENCE_LEAVE' && m.client === bobHere.client, 0, 'Bob leaving');
      assert.equal(b.messages.filter((m) => m.type === 'PRESENCE' && String(m.selected).includes('<img')).length, 0);
    });
  });

  describe('/ws/switchboard_summary', () => {
    it('sends a summary on connect and after a run: status, progress and node counts', async () => {
      const sb = await newSwitchboard(alice.client);
      const a = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const b = await addFrame(alice.client, sb, 'string');
      const c = await addFrame(alice.client, sb, 'string');
      const upper = await addNode(alice.client, sb, 'string.upper');
      const lower = await addNode(alice.client, sb, 'string.lower');
      await link(alice.client, upper, 'value', a, true);
      await link(alice.client, upper, 'result', b, false);
      await link(alice.client, lower, 'value', b, true);
      await link(alice.client, lower, 'result', c, false);

      const live = await subscribe('/ws/switchboard_summary', alice.client, sb);
      const first = await live.waitFor((m) => m.type === 'SUMMARY', 0, 'the first SUMMARY');
      assert.equal(first.resource_uri, sb.resource_uri);
      assert.equal(first.status, 'initialized');
      assert.deepEqual(first.progress, { total: 0 });
      assert.equal(first.execution, null);
      // Linked since they last ran (never): both are outdated until a run.
      assert.deepEqual(first.nodes, { initialized: 2, waiting: 0, started: 0, success: 0, failure: 0, outdated: 2 });

      const from = live.mark();
      const exec = await runAndWait(t, alice.client, sb);
      assert.equal(exec.status, 'success');
      const done = await live.waitFor(
        (m) => m.type === 'SUMMARY' && m.status === 'success' && m.nodes?.success === 2,
        from,
        'a SUMMARY after the run',
      );
      assert.deepEqual(done.progress, { total: 100 });
      assert.equal(done.execution, exec.resource_uri);
      assert.deepEqual(done.nodes, { initialized: 0, waiting: 0, started: 0, success: 2, failure: 0, outdated: 0 });
      assert.ok(
        live.messages.every((m) => m.type === 'SUBSCRIBED' || m.type === 'SUMMARY'),
        'the summary channel sends summaries only',
      );
    });

    it('counts a failed node and the switchboard’s failure', async () => {
      const sb = await newSwitchboard(alice.client);
      await addNode(alice.client, sb, 'test.fail', [{ name: 'message', default_value: { value: 'broken on purpose' } }]);
      await addNode(alice.client, sb, 'string.upper', [{ name: 'value', default_value: { value: 'ok' } }]);
      const live = await subscribe('/ws/switchboard_summary', alice.client, sb);
      const from = live.mark();
      expectStatus(await alice.client.post(`${sb.resource_uri}run/`, {}), 202);
      const done = await live.waitFor((m) => m.type === 'SUMMARY' && m.status === 'failure', from, 'a failure SUMMARY');
      assert.equal(done.nodes.failure, 1);
      assert.equal(done.nodes.success, 1);
    });

    it('closes with 4404 for a user who may not read the switchboard and for unknown ids', async () => {
      const sb = await newSwitchboard(alice.client);
      for (const [client, id] of [
        [bob.client, String(sb.id)],
        [alice.client, '999999'],
        [alice.client, 'x1'],
      ] as const) {
        const live = await open('/ws/switchboard_summary', client, id);
        const { code } = await live.closed;
        assert.equal(code, 4404, id);
        assert.deepEqual(live.messages, []);
      }
      expectStatus(await alice.client.get(`${SWITCHBOARDS}${sb.id}/`), 200);
    });
  });
});
