import assert from 'node:assert/strict';
import type { TestServer } from '@werkbank/testing/node';
import { assertError } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  assertField,
  contentOf,
  link,
  LINKS,
  list,
  newSwitchboard,
  runAndWait,
  switchboardServer,
  type User,
} from './switchboard-support';

/**
 * Links between nodes and frames through the API (spec 000 §3): type checks along the base chain,
 * cycles, input slots, list ports and links across switchboards.
 */
describe('Switchboard model: links', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let t: TestServer;
  let alice: User;
  before(() => ({ t, alice } = server.get()));

  describe('links', () => {
    it('refuses an input whose frame type does not derive from the port type, naming both types', async () => {
      const sb = await newSwitchboard(alice.client);
      const ints = await addFrame(alice.client, sb, 'int', [{ value: 1 }]);
      const upper = await addNode(alice.client, sb, 'string.upper');
      const res = await alice.client.post(LINKS, {
        node: upper.resource_uri,
        frame: ints.resource_uri,
        name: 'value',
        is_input: true,
      });
      assertError(res, 400, 'type_mismatch');
      assert.match(res.body.reason, /\bint\b/);
      assert.match(res.body.reason, /\bstring\b/);
      assert.deepEqual(await list(alice.client, `${LINKS}?switchboard_id=${sb.id}`), []);
    });

    it('accepts an input along the base chain (int into number) and any frame into an any port', async () => {
      const sb = await newSwitchboard(alice.client);
      const ints = await addFrame(alice.client, sb, 'int', [{ value: 1 }]);
      const texts = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const add = await addNode(alice.client, sb, 'number.add');
      const l = await link(alice.client, add, 'a', ints, true);
      assert.equal(l.frame, ints.resource_uri);
      assert.equal(l.node, add.resource_uri);
      const count1 = await addNode(alice.client, sb, 'frame.count');
      const count2 = await addNode(alice.client, sb, 'frame.count');
      await link(alice.client, count1, 'frame', ints, true);
      await link(alice.client, count2, 'frame', texts, true);
      // number into int is not the base chain's direction.
      const numbers = await addFrame(alice.client, sb, 'number', [{ value: 1.5 }]);
      const round = await addNode(alice.client, sb, 'number.round');
      assertError(
        await alice.client.post(LINKS, { node: round.resource_uri, frame: numbers.resource_uri, name: 'digits', is_input: true }),
        400,
        'type_mismatch',
      );
    });

    it('lets an output write only into a frame of its type or a base of it', async () => {
      const sb = await newSwitchboard(alice.client);
      const length = await addNode(alice.client, sb, 'string.length');
      const asNumber = await addFrame(alice.client, sb, 'number');
      const asText = await addFrame(alice.client, sb, 'string');
      const anything = await addFrame(alice.client, sb, 'any');
      const res = await alice.client.post(LINKS, {
        node: length.resource_uri,
        frame: asText.resource_uri,
        name: 'result',
        is_input: false,
      });
      assertError(res, 400, 'type_mismatch');
      assert.match(res.body.reason, /\bint\b/);
      assert.match(res.body.reason, /\bstring\b/);
      await link(alice.client, length, 'result', asNumber, false);
      const merge = await addNode(alice.client, sb, 'frame.merge');
      await link(alice.client, merge, 'frame', anything, false);
      const add = await addNode(alice.client, sb, 'number.add');
      const ints = await addFrame(alice.client, sb, 'int');
      assertError(
        await alice.client.post(LINKS, { node: add.resource_uri, frame: ints.resource_uri, name: 'result', is_input: false }),
        400,
        'type_mismatch',
      );
      assertField(
        await alice.client.post(LINKS, { node: add.resource_uri, frame: ints.resource_uri, name: 'nosuch', is_input: false }),
        400,
        'unknown_port',
        'name',
      );
    });

    it('lets a generic (any) output write into a frame of any registered type, as the canvas does', async () => {
      const sb = await newSwitchboard(alice.client);
      const texts = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const out = await addFrame(alice.client, sb, 'string');
      const merge = await addNode(alice.client, sb, 'frame.merge');
      await link(alice.client, merge, 'frames', texts, true);
      const written = await link(alice.client, merge, 'frame', out, false);
      assert.equal(written.frame, out.resource_uri);
      assert.equal((await runAndWait(t, alice.client, sb)).status, 'success');
      assert.deepEqual(await contentOf(alice.client, out), [{ value: 'x' }]);
    });

    it('refuses a frame whose type is no longer registered, even into an any port, naming the types', async () => {
      const sb = await newSwitchboard(alice.client);
      const orphan = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      // The plugin that registered the type was removed: the frame keeps a type nobody knows.
      await t.server.db.dataSource.query(`UPDATE switchboard_frame SET content_type = 'gone-type' WHERE id = $1`, [orphan.id]);
      const count = await addNode(alice.client, sb, 'frame.count');
      const res = await alice.client.post(LINKS, {
        node: count.resource_uri,
        frame: orphan.resource_uri,
        name: 'frame',
        is_input: true,
      });
      assertField(res, 400, 'unknown_type', 'frame');
      assert.match(res.body.reason, /gone-type/);
    });

    it('refuses to run a node whose saved link no longer fits the link rule, and runs nothing', async () => {
      const sb = await newSwitchboard(alice.client);
      const texts = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const out = await addFrame(alice.client, sb, 'string');
      const upper = await addNode(alice.client, sb, 'string.upper');
      await link(alice.client, upper, 'value', texts, true);
      await link(alice.client, upper, 'result', out, false);
      await t.server.db.dataSource.query(`UPDATE switchboard_frame SET content_type = 'int' WHERE id = $1`, [texts.id]);
      const res = await alice.client.post(`${sb.resource_uri}run/`, {});
      assertField(res, 400, 'type_mismatch', 'frame');
      assert.match(res.body.reason, /\bint\b/);
      assert.deepEqual(await contentOf(alice.client, out), []);
    });

    it('refuses a cycle: two nodes feeding each other, or a node reading its own output', async () => {
      const sb = await newSwitchboard(alice.client);
      const a = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const b = await addFrame(alice.client, sb, 'string');
      const upper = await addNode(alice.client, sb, 'string.upper');
      const lower = await addNode(alice.client, sb, 'string.lower');
      await link(alice.client, upper, 'value', a, true);
      await link(alice.client, upper, 'result', b, false);
      await link(alice.client, lower, 'value', b, true);
      const res = await alice.client.post(LINKS, {
        node: lower.resource_uri,
        frame: a.resource_uri,
        name: 'result',
        is_input: false,
      });
      assertError(res, 400, 'link_cycle');

      const self = await addNode(alice.client, sb, 'string.upper');
      const own = await addFrame(alice.client, sb, 'string');
      await link(alice.client, self, 'result', own, false);
      assertError(
        await alice.client.post(LINKS, { node: self.resource_uri, frame: own.resource_uri, name: 'value', is_input: true }),
        400,
        'link_cycle',
      );
      const self2 = await addNode(alice.client, sb, 'string.lower');
      const own2 = await addFrame(alice.client, sb, 'string');
      await link(alice.client, self2, 'value', own2, true);
      assertError(
        await alice.client.post(LINKS, { node: self2.resource_uri, frame: own2.resource_uri, name: 'result', is_input: false }),
        400,
        'link_cycle',
      );
      assert.equal((await list(alice.client, `${LINKS}?switchboard_id=${sb.id}`)).length, 5);
    });

    it('replaces the link of a taken input slot: the old link is gone', async () => {
      const sb = await newSwitchboard(alice.client);
      const first = await addFrame(alice.client, sb, 'string', [{ value: 'first' }]);
      const second = await addFrame(alice.client, sb, 'string', [{ value: 'second' }]);
      const out = await addFrame(alice.client, sb, 'string');
      const upper = await addNode(alice.client, sb, 'string.upper');
      const old = await link(alice.client, upper, 'value', first, true);
      await link(alice.client, upper, 'result', out, false);
      const replacing = await link(alice.client, upper, 'value', second, true);
      assertError(await alice.client.get(old.resource_uri), 404, 'not_found');
      const inputs = (await list(alice.client, `${LINKS}?switchboard_id=${sb.id}`)).filter((l) => l.is_input);
      assert.deepEqual(
        inputs.map((l) => l.id),
        [replacing.id],
      );
      const exec = await runAndWait(t, alice.client, sb);
      assert.equal(exec.status, 'success');
      assert.deepEqual(await contentOf(alice.client, out), [{ value: 'SECOND' }]);
    });

    it('gives a list port one slot per list_index, numbering new links after the highest', async () => {
      const sb = await newSwitchboard(alice.client);
      const x = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const y = await addFrame(alice.client, sb, 'int', [{ value: 2 }]);
      const z = await addFrame(alice.client, sb, 'string', [{ value: 'z' }]);
      const out = await addFrame(alice.client, sb, 'any');
      const merge = await addNode(alice.client, sb, 'frame.merge');
      const l0 = await link(alice.client, merge, 'frames', y, true, { list_index: 3 });
      assert.equal(l0.list_index, 3);
      const l1 = await link(alice.client, merge, 'frames', x, true);
      assert.equal(l1.list_index, 4);
      const l2 = await link(alice.client, merge, 'frames', z, true, { list_index: 0 });
      assert.equal(l2.list_index, 0);
      await link(alice.client, merge, 'frame', out, false);
      // The same slot again replaces.
      const l3 = await link(alice.client, merge, 'frames', x, true, { list_index: 3 });
      assertError(await alice.client.get(l0.resource_uri), 404, 'not_found');
      assert.equal(l3.list_index, 3);
      assertField(
        await alice.client.post(LINKS, {
          node: merge.resource_uri,
          frame: x.resource_uri,
          name: 'frames',
          is_input: true,
          list_index: -1,
        }),
        400,
        'invalid_field',
        'list_index',
      );
      assertField(
        await alice.client.post(LINKS, {
          node: merge.resource_uri,
          frame: x.resource_uri,
          name: 'frames',
          is_input: true,
          dict_key: 'k',
        }),
        400,
        'invalid_field',
        'dict_key',
      );
      const upper = await addNode(alice.client, sb, 'string.upper');
      assertField(
        await alice.client.post(LINKS, {
          node: upper.resource_uri,
          frame: x.resource_uri,
          name: 'value',
          is_input: true,
          list_index: 1,
        }),
        400,
        'invalid_field',
        'list_index',
      );
      const exec = await runAndWait(t, alice.client, sb, { node: merge.resource_uri });
      assert.equal(exec.status, 'success');
      assert.deepEqual(await contentOf(alice.client, out), [{ value: 'z' }, { value: 'x' }, { value: 'x' }]);
    });

    it('refuses a link between a node and a frame of different switchboards', async () => {
      const one = await newSwitchboard(alice.client);
      const two = await newSwitchboard(alice.client);
      const frame = await addFrame(alice.client, two, 'string', [{ value: 'x' }]);
      const node = await addNode(alice.client, one, 'string.upper');
      assertError(
        await alice.client.post(LINKS, { node: node.resource_uri, frame: frame.resource_uri, name: 'value', is_input: true }),
        400,
        'link_switchboards',
      );
      assertError(
        await alice.client.post(LINKS, {
          switchboard: two.resource_uri,
          node: node.resource_uri,
          frame: frame.resource_uri,
          name: 'value',
          is_input: true,
        }),
        400,
        'link_switchboards',
      );
      assert.deepEqual(await list(alice.client, `${LINKS}?switchboard_id=${one.id}`), []);
      assert.deepEqual(await list(alice.client, `${LINKS}?switchboard_id=${two.id}`), []);
    });
  });
});
