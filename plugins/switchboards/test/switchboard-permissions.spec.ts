import assert from 'node:assert/strict';
import type { TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, userUri, type Client } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  FRAMES,
  get,
  grant,
  link,
  LINKS,
  list,
  newSwitchboard,
  NODES,
  NOTES,
  runAndWait,
  switchboardServer,
  SWITCHBOARDS,
  type Obj,
  type User,
} from './switchboard-support';

/** Object permissions on switchboards and their parts through the API (spec 002 §6). */
describe('Switchboard model: permissions', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let t: TestServer;
  let alice: User;
  let bob: User;
  before(() => ({ t, alice, bob } = server.get()));

  describe('permissions (spec 002 §6)', () => {
    async function canvas(): Promise<{ sb: Obj; a: Obj; b: Obj; node: Obj }> {
      const sb = await newSwitchboard(alice.client);
      const a = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const b = await addFrame(alice.client, sb, 'string');
      const node = await addNode(alice.client, sb, 'string.upper');
      await link(alice.client, node, 'value', a, true);
      return { sb, a, b, node };
    }

    const tryEdits = async (c: Client, { sb, b, node }: { sb: Obj; b: Obj; node: Obj }) => [
      await c.post(NODES, { switchboard: sb.resource_uri, func: 'string.lower' }),
      await c.post(FRAMES, { switchboard: sb.resource_uri, content_type: 'string' }),
      await c.post(LINKS, { node: node.resource_uri, frame: b.resource_uri, name: 'result', is_input: false }),
      await c.post(NOTES, { switchboard: sb.resource_uri, text: 'mine now' }),
      await c.patch(node.resource_uri, { ui_x: 99 }),
      await c.patch(sb.resource_uri, { name: 'taken over' }),
    ];

    it('hides a switchboard and its parts from a user without a grant (404, not listed)', async () => {
      const { sb, node, a } = await canvas();
      assertError(await bob.client.get(sb.resource_uri), 404, 'not_found');
      assertError(await bob.client.get(node.resource_uri), 404, 'not_found');
      assertError(await bob.client.get(a.resource_uri), 404, 'not_found');
      assertError(await bob.client.post(`${sb.resource_uri}run/`, {}), 404, 'not_found');
      assert.deepEqual(await list(bob.client, `${NODES}?switchboard_id=${sb.id}`), []);
      assert.deepEqual(await list(bob.client, `${FRAMES}?switchboard_id=${sb.id}`), []);
      assert.ok(!(await list(bob.client, `${NODES}?limit=1000`)).some((n) => n.id === node.id));
      assert.ok(!(await list(bob.client, `${SWITCHBOARDS}?limit=1000`)).some((s) => s.id === sb.id));
      assertError(await bob.client.post(NODES, { switchboard: sb.resource_uri, func: 'string.lower' }), 404, 'not_found');
      assertError(await bob.client.post(NOTES, { switchboard: sb.resource_uri, text: 'hello' }), 404, 'not_found');
      assert.equal((await list(alice.client, `${NODES}?switchboard_id=${sb.id}`)).length, 1);
    });

    it('with View (read): shows everything but refuses edits and runs with 403', async () => {
      const parts = await canvas();
      const { sb, node } = parts;
      const granted = await grant(alice.client, sb, bob, ['read']);
      assert.deepEqual(granted.permissions, [{ user: userUri(bob.id), perms: ['read'] }]);
      assert.deepEqual((await get(bob.client, sb.resource_uri)).access, ['read']);
      assert.deepEqual((await get(bob.client, node.resource_uri)).access, ['read']);
      assert.equal((await list(bob.client, `${NODES}?switchboard_id=${sb.id}`)).length, 1);
      assert.equal((await list(bob.client, `${FRAMES}?switchboard_id=${sb.id}`)).length, 2);
      assert.equal((await get(bob.client, `${sb.resource_uri}reload/`)).nodes.length, 1);
      for (const res of await tryEdits(bob.client, parts)) assertError(res, 403, 'permission_denied');
      assertError(await bob.client.delete(node.resource_uri), 403, 'permission_denied');
      assertError(await bob.client.post(`${sb.resource_uri}run/`, {}), 403, 'permission_denied');
      const r = await get(alice.client, `${sb.resource_uri}reload/`);
      assert.deepEqual([r.nodes.length, r.frames.length, r.links.length, r.notes.length], [1, 2, 1, 0]);
      assert.equal(r.switchboard.status, 'initialized');
    });

    it('with Run (execute): runs, but refuses edits with 403', async () => {
      const parts = await canvas();
      await grant(alice.client, parts.sb, bob, ['execute']);
      assert.deepEqual((await get(bob.client, parts.sb.resource_uri)).access, ['read', 'execute']);
      for (const res of await tryEdits(bob.client, parts)) assertError(res, 403, 'permission_denied');
      const exec = await runAndWait(t, bob.client, parts.sb);
      assert.equal(exec.status, 'success');
      assert.equal((await get(alice.client, parts.node.resource_uri)).status, 'success');
    });

    it('with Edit (write): edits, but does not run without Run', async () => {
      const parts = await canvas();
      await grant(alice.client, parts.sb, bob, ['read', 'write']);
      const [node, frame, l, note, moved, renamed] = await tryEdits(bob.client, parts);
      for (const [res, status] of [
        [node, 201],
        [frame, 201],
        [l, 201],
        [note, 201],
        [moved, 200],
        [renamed, 200],
      ] as const)
        expectStatus(res, status);
      assert.equal((await get(alice.client, parts.sb.resource_uri)).name, 'taken over');
      assert.equal((await get(alice.client, parts.sb.resource_uri)).owner, userUri(alice.id));
      assertError(await bob.client.post(`${parts.sb.resource_uri}run/`, {}), 403, 'permission_denied');
    });
  });
});
