import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/sdk/testing/node';
import { assertError, expectStatus, TAGS, userUri, type Client, type Reply } from './api-test-support';
import {
  addFrame,
  addNode,
  contentOf,
  FRAMES,
  FUNCTIONS,
  link,
  LINKS,
  newSwitchboard,
  NODES,
  NOTES,
  runAndWait,
  SWITCHBOARD_PLUGINS,
  SWITCHBOARDS,
  WORKFLOWS,
  type Obj,
} from './switchboard-support';
import { addDatum, newDepot, type Depot } from './magazine-support';
import { Engine } from '../../plugins/switchboards/src/node/engine';

const SB_FOLDERS = '/api/v1/switchboardfolder/';
const CREATE = '/api/v2/switchboard/create/';
const CREATE_FROM_DATUM = '/api/v2/switchboard/create/datum/';

type User = { id: number; client: Client };
type Grant = 'read' | 'write' | 'execute';

/**
 * The switchboard model through the API (spec 000 §3, §5, §7; spec 002 §6): switchboards and
 * folders, nodes, links, frames, notes, the function list, context view, export and import,
 * creation calls and object permissions.
 */
describe('Switchboard model', function () {
  this.timeout(60_000);
  let t: TestServer;
  let alice: User;
  let bob: User;
  const logs: string[] = [];
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    logs.length = 0;
  });

  before(async () => {
    t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS, logs });
    alice = await t.user();
    bob = await t.user();
  });
  after(() => t?.close());

  const get = async (c: Client, uri: string): Promise<Obj> => expectStatus<Obj>(await c.get(uri), 200);
  const list = async (c: Client, url: string): Promise<Obj[]> => expectStatus<{ objects: Obj[] }>(await c.get(url), 200).objects;
  const grant = async (owner: Client, sb: Obj, user: User, perms: Grant[]) =>
    expectStatus<Obj>(await owner.patch(sb.resource_uri, { permissions: [{ user: userUri(user.id), perms }] }), 200);
  const switchboardCount = async (c: Client) =>
    expectStatus<{ meta: { total_count: number } }>(await c.get(`${SWITCHBOARDS}?limit=1`), 200).meta.total_count;
  const approvedDepot = async (c: Client, type: string, values: unknown[]): Promise<Depot> => {
    const depot = await newDepot(c, type);
    let moment = 0;
    for (const value of values) moment = (await addDatum(c, depot, { value })).moment_id;
    expectStatus(await c.post(`/api/v1/moment/${moment}/approve/`, {}), 200);
    return depot;
  };
  const assertField = (res: Reply, status: number, code: string, field: string | RegExp) => {
    assertError(res, status, code);
    if (field instanceof RegExp) assert.match(String(res.body.field), field);
    else assert.equal(res.body.field, field);
  };

  describe('GET /api/v2/switchboard/create', () => {
    it('creates a switchboard named as asked, in the folder, with the tags, owned by the caller', async () => {
      const folder = expectStatus<Obj>(await alice.client.post(SB_FOLDERS, { name: 'Rivers' }), 201);
      const tag = expectStatus<Obj>(await alice.client.post(TAGS, { name: 'hydro' }), 201);
      const q = new URLSearchParams({ name: 'Flood map', folder_uri: folder.resource_uri, tags: String(tag.id) });
      const created = expectStatus<Obj>(await alice.client.get(`${CREATE}?${q}`), 200);
      assert.equal(created.name, 'Flood map');
      assert.equal(typeof created.switchboard_id, 'number');
      assert.equal(created.resource_uri, `${SWITCHBOARDS}${created.switchboard_id}/`);
      const sb = await get(alice.client, created.resource_uri);
      assert.equal(sb.folder, folder.resource_uri);
      assert.deepEqual(
        sb.tags.map((x: Obj) => x.name),
        ['hydro'],
      );
      assert.equal(sb.owner, userUri(alice.id));
    });

    it('takes a tag by the address the tags API gives it', async () => {
      const tag = expectStatus<Obj>(await alice.client.post(TAGS, { name: 'by address' }), 201);
      const q = new URLSearchParams({ name: 'Tagged by address', tags: tag.resource_uri });
      const created = expectStatus<Obj>(await alice.client.get(`${CREATE}?${q}`), 200);
      const sb = await get(alice.client, created.resource_uri);
      assert.deepEqual(
        sb.tags.map((x: Obj) => x.id),
        [tag.id],
      );
    });

    it('answers the spec’s path without a trailing slash too', async () => {
      const created = expectStatus<Obj>(await alice.client.get(`/api/v2/switchboard/create?name=No+slash`), 200);
      assert.equal((await get(alice.client, created.resource_uri)).name, 'No slash');
    });

    it('refuses the call without the X-CSRFToken header (it changes state) and creates nothing', async () => {
      const before = await switchboardCount(alice.client);
      assertError(await alice.client.get(`${CREATE}?name=Forged`, { csrf: false }), 403, 'csrf_missing');
      assert.equal(await switchboardCount(alice.client), before);
    });

    it('refuses an unknown folder with 400 naming it, and a missing name, creating nothing', async () => {
      const before = await switchboardCount(alice.client);
      const bad = await alice.client.get(`${CREATE}?name=Lost&folder_uri=${encodeURIComponent(`${SB_FOLDERS}999999/`)}`);
      assertError(bad, 400, 'invalid_field');
      assert.match(String(bad.body.field), /folder/);
      assertField(await alice.client.get(`${CREATE}?folder_uri=x`), 400, 'invalid_parameter', 'name');
      assert.equal(await switchboardCount(alice.client), before);
    });
  });

  describe('switchboards and folders', () => {
    it('shows status, progress, input and output frames, canvas view fields, owner and permissions', async () => {
      const sb = await newSwitchboard(alice.client, { ui_offset_x: 120.5, ui_offset_y: -40, ui_zoom: 1.5 });
      assert.equal(sb.status, 'initialized');
      assert.deepEqual(sb.progress, { total: 0 });
      assert.equal(sb.ui_offset_x, 120.5);
      assert.equal(sb.ui_offset_y, -40);
      assert.equal(sb.ui_zoom, 1.5);
      assert.equal(sb.automatic, false);
      assert.equal(sb.owner, userUri(alice.id));
      assert.deepEqual(sb.permissions, []);
      assert.deepEqual(sb.input_frames, []);
      const input = await addFrame(alice.client, sb, 'int', [{ value: 1 }], { frame_type: 1, name: 'count' });
      const output = await addFrame(alice.client, sb, 'string', undefined, { frame_type: 2, name: 'report' });
      await addFrame(alice.client, sb, 'string', undefined, { frame_type: 0, name: 'scratch' });
      const now = await get(alice.client, sb.resource_uri);
      assert.deepEqual(
        now.input_frames.map((f: Obj) => [f.resource_uri, f.name, f.type_name, f.frame_type]),
        [[input.resource_uri, 'count', 'int', 1]],
      );
      assert.deepEqual(
        now.output_frames.map((f: Obj) => [f.resource_uri, f.name, f.type_name, f.frame_type]),
        [[output.resource_uri, 'report', 'string', 2]],
      );
      const changed = expectStatus<Obj>(
        await alice.client.patch(sb.resource_uri, { ui_offset_x: 5, ui_zoom: 0.25, automatic: true, name: 'Renamed' }),
        200,
      );
      assert.deepEqual([changed.ui_offset_x, changed.ui_zoom, changed.automatic, changed.name], [5, 0.25, true, 'Renamed']);
      assertField(await alice.client.patch(sb.resource_uri, { ui_zoom: 0 }), 400, 'invalid_field', 'ui_zoom');
      assertField(await alice.client.patch(sb.resource_uri, { status: 'success' }), 400, 'read_only_field', 'status');
      assert.equal((await get(alice.client, sb.resource_uri)).status, 'initialized');
    });

    it('deletes a switchboard with everything on it, but not while it runs (409)', async () => {
      const sb = await newSwitchboard(alice.client);
      const frame = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
      const node = await addNode(alice.client, sb, 'test.wait', [{ name: 'ms', default_value: { value: 60_000 } }]);
      const l = await link(alice.client, node, 'value', frame, true);
      const note = expectStatus<Obj>(await alice.client.post(NOTES, { switchboard: sb.resource_uri, text: 'bye' }), 201);
      expectStatus(await alice.client.post(`${sb.resource_uri}run/`, {}), 202);
      assertError(await alice.client.delete(sb.resource_uri), 409, 'switchboard_running');
      assert.equal((await get(alice.client, sb.resource_uri)).status, 'started');
      const aborted = expectStatus<Obj>(await alice.client.post(`${sb.resource_uri}abort/`, {}), 200);
      assert.equal(aborted.status, 'failure');
      await t.server.kernel.container.get(Engine).idle();
      expectStatus(await alice.client.delete(sb.resource_uri), 204);
      for (const uri of [sb.resource_uri, frame.resource_uri, node.resource_uri, l.resource_uri, note.resource_uri])
        assertError(await alice.client.get(uri), 404, 'not_found');
    });

    it('computes the next run from a periodic rule and clears it when periodic execution is off', async () => {
      const sb = await newSwitchboard(alice.client);
      assert.equal(sb.next_run, null);
      assertField(
        await alice.client.patch(sb.resource_uri, { periodic_execution: true }),
        400,
        'invalid_rule',
        'periodic_execution_rule',
      );
      const on = expectStatus<Obj>(
        await alice.client.patch(sb.resource_uri, {
          periodic_execution: true,
          periodic_execution_rule: 'FREQ=DAILY;BYHOUR=6;BYMINUTE=30',
        }),
        200,
      );
      assert.equal(on.periodic_execution_rule, 'FREQ=DAILY;BYHOUR=6;BYMINUTE=30');
      const next = new Date(on.next_run);
      assert.ok(next.getTime() > Date.now(), `next run ${on.next_run} is not in the future`);
      assert.ok(next.getTime() <= Date.now() + 25 * 3600_000, `next run ${on.next_run} is more than a day away`);
      const berlin = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      }).format(next);
      assert.equal(berlin, '06:30');
      assertField(
        await alice.client.patch(sb.resource_uri, { periodic_execution_rule: 'EVERY SUNDAY' }),
        400,
        'invalid_rule',
        'periodic_execution_rule',
      );
      const off = expectStatus<Obj>(await alice.client.patch(sb.resource_uri, { periodic_execution: false }), 200);
      assert.equal(off.next_run, null);
      assert.equal(off.periodic_execution_rule, 'FREQ=DAILY;BYHOUR=6;BYMINUTE=30');
    });

    it('creates, renames, lists and deletes folders; a folder holding switchboards is not deleted (409)', async () => {
      const folder = expectStatus<Obj>(await alice.client.post(SB_FOLDERS, { name: 'Draft' }), 201);
      const renamed = expectStatus<Obj>(await alice.client.patch(folder.resource_uri, { name: 'Final' }), 200);
      assert.equal(renamed.name, 'Final');
      assert.ok((await list(alice.client, `${SB_FOLDERS}?limit=1000`)).some((f) => f.id === folder.id));
      assertError(await bob.client.patch(folder.resource_uri, { name: 'taken over' }), 403, 'permission_denied');
      const sb = await newSwitchboard(alice.client, { folder: folder.resource_uri });
      assert.equal(sb.folder, folder.resource_uri);
      const inFolder = await list(alice.client, `${SWITCHBOARDS}?in_folder=${folder.id}`);
      assert.deepEqual(
        inFolder.map((s) => s.id),
        [sb.id],
      );
      assertError(await alice.client.delete(folder.resource_uri), 409, 'folder_not_empty', /Final/);
      expectStatus(await alice.client.patch(sb.resource_uri, { folder: null }), 200);
      expectStatus(await alice.client.delete(folder.resource_uri), 204);
      assertError(await alice.client.get(folder.resource_uri), 404, 'not_found');
      assertField(
        await alice.client.post(SWITCHBOARDS, { name: 'Nowhere', folder: `${SB_FOLDERS}999999/` }),
        400,
        'invalid_field',
        'folder',
      );
    });
  });

  describe('nodes', () => {
    it('refuses an unknown function with 400 unknown_function naming it', async () => {
      const sb = await newSwitchboard(alice.client);
      const res = await alice.client.post(NODES, { switchboard: sb.resource_uri, func: 'nosuch.function' });
      assertField(res, 400, 'unknown_function', 'func');
      assert.match(res.body.reason, /nosuch\.function/);
      assert.equal((await list(alice.client, `${NODES}?switchboard_id=${sb.id}`)).length, 0);
    });

    it('copies the function’s ports, inputs with their defaults', async () => {
      const sb = await newSwitchboard(alice.client);
      const node = await addNode(alice.client, sb, 'string.concat');
      const fn = await get(alice.client, `${FUNCTIONS}string.concat/`);
      const shape = (p: Obj) => [p.name, p.content_type, p.is_input, p.is_optional, p.is_list, p.is_dict, p.default_value];
      assert.deepEqual(node.ports.map(shape), [...fn.inputs, ...fn.outputs].map(shape));
      assert.deepEqual(
        node.ports.find((p: Obj) => p.name === 'separator'),
        {
          name: 'separator',
          content_type: 'string',
          is_input: true,
          is_optional: true,
          is_list: false,
          is_dict: false,
          default_value: { value: '' },
        },
      );
      assert.equal(node.status, 'initialized');
      assert.equal(node.func, 'string.concat');
    });

    it('checks parameters (input default values) against the port type, naming the bad field', async () => {
      const sb = await newSwitchboard(alice.client);
      const node = await addNode(alice.client, sb, 'number.round');
      const ok = expectStatus<Obj>(
        await alice.client.patch(node.resource_uri, { ports: [{ name: 'digits', default_value: { value: 2 } }] }),
        200,
      );
      assert.deepEqual(ok.ports.find((p: Obj) => p.name === 'digits').default_value, { value: 2 });

      const bad = await alice.client.patch(node.resource_uri, { ports: [{ name: 'digits', default_value: { value: 'two' } }] });
      assertField(bad, 400, 'invalid_value', /^ports\[0\]\.default_value/);
      assert.match(bad.body.reason, /digits/);
      const notInt = await alice.client.patch(node.resource_uri, { ports: [{ name: 'digits', default_value: { value: 1.5 } }] });
      assertField(notInt, 400, 'invalid_value', /^ports\[0\]\.default_value/);
      assertField(
        await alice.client.patch(node.resource_uri, { ports: [{ name: 'result', default_value: { value: 1 } }] }),
        400,
        'invalid_field',
        'ports[0]',
      );
      assertField(
        await alice.client.patch(node.resource_uri, { ports: [{ name: 'nosuch', default_value: { value: 1 } }] }),
        400,
        'unknown_port',
        'ports[0]',
      );
      assert.deepEqual((await get(alice.client, node.resource_uri)).ports.find((p: Obj) => p.name === 'digits').default_value, {
        value: 2,
      });
      // At creation too.
      assertField(
        await alice.client.post(NODES, {
          switchboard: sb.resource_uri,
          func: 'number.round',
          ports: [{ name: 'digits', default_value: { value: 'x' } }],
        }),
        400,
        'invalid_value',
        /^ports\[0\]\.default_value/,
      );
    });

    it('names the function in the caller’s language (Accept-Language, or the language the user chose)', async () => {
      const sb = await newSwitchboard(alice.client);
      const node = await addNode(alice.client, sb, 'string.upper');
      const en = expectStatus<Obj>(await alice.client.get(node.resource_uri, { headers: { 'Accept-Language': 'en' } }), 200);
      const de = expectStatus<Obj>(await alice.client.get(node.resource_uri, { headers: { 'Accept-Language': 'de' } }), 200);
      assert.equal(en.func_verbose_name, 'Upper case');
      assert.equal(de.func_verbose_name, 'Großbuchstaben');
      const carl = await t.user();
      expectStatus(await carl.client.patch('/api/v2/backend/profile', { language: 'de' }), 200);
      const sb2 = await newSwitchboard(carl.client);
      const mine = await addNode(carl.client, sb2, 'string.upper');
      assert.equal(mine.func_verbose_name, 'Großbuchstaben');
      const listed = await list(carl.client, `${NODES}?switchboard_id=${sb2.id}`);
      assert.equal(listed[0].func_verbose_name, 'Großbuchstaben');
    });
  });

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

  describe('frames', () => {
    it('checks every item of new content against the type, naming the bad item; size and text follow', async () => {
      const sb = await newSwitchboard(alice.client);
      const frame = await addFrame(alice.client, sb, 'int', [{ value: 1 }]);
      assert.equal(frame.size, 1);
      const bad = await alice.client.patch(frame.resource_uri, { content: [{ value: 1 }, { value: 'two' }, { value: 3 }] });
      assertField(bad, 400, 'invalid_value', /^content\[1\]/);
      assert.equal((await get(alice.client, frame.resource_uri)).size, 1);
      assert.deepEqual(await contentOf(alice.client, frame), [{ value: 1 }]);
      const ok = expectStatus<Obj>(
        await alice.client.patch(frame.resource_uri, { content: [{ value: 7 }, { value: 8 }, { value: 9 }] }),
        200,
      );
      assert.equal(ok.size, 3);
      assert.match(ok.text_repr, /7/);
      assert.match(ok.text_repr, /9/);
      assert.deepEqual(await contentOf(alice.client, frame), [{ value: 7 }, { value: 8 }, { value: 9 }]);
      assertField(await alice.client.patch(frame.resource_uri, { content: 'nope' }), 400, 'invalid_field', 'content');
      assertField(
        await alice.client.post(FRAMES, { switchboard: sb.resource_uri, content_type: 'nosuchtype' }),
        400,
        'invalid_field',
        'content_type',
      );
    });

    it('turns editing off when the content is hidden', async () => {
      const sb = await newSwitchboard(alice.client);
      const frame = await addFrame(alice.client, sb, 'string', [], { content_visible: true, content_edit: true });
      assert.deepEqual([frame.content_visible, frame.content_edit], [true, true]);
      const hidden = expectStatus<Obj>(await alice.client.patch(frame.resource_uri, { content_visible: false }), 200);
      assert.deepEqual([hidden.content_visible, hidden.content_edit], [false, false]);
      const stillHidden = expectStatus<Obj>(await alice.client.patch(frame.resource_uri, { content_edit: true }), 200);
      assert.equal(stillHidden.content_edit, false);
      const created = await addFrame(alice.client, sb, 'string', [], { content_visible: false, content_edit: true });
      assert.equal(created.content_edit, false);
    });

    it('pages the content with offset and limit and tells the total', async () => {
      const sb = await newSwitchboard(alice.client);
      const items = Array.from({ length: 25 }, (_, i) => ({ value: i }));
      const frame = await addFrame(alice.client, sb, 'int', items);
      const page = expectStatus<Obj>(await alice.client.get(`${FRAMES}${frame.id}/content/?offset=10&limit=5`), 200);
      assert.deepEqual(page.objects, items.slice(10, 15));
      assert.deepEqual(page.meta, { offset: 10, limit: 5, total_count: 25 });
      assert.equal(page.content_type, '/api/v1/type/int/');
      const tail = expectStatus<Obj>(await alice.client.get(`${FRAMES}${frame.id}/content/?offset=20&limit=100`), 200);
      assert.deepEqual(tail.objects, items.slice(20));
      const empty = await addFrame(alice.client, sb, 'int');
      assert.deepEqual(expectStatus<Obj>(await alice.client.get(`${FRAMES}${empty.id}/content/`), 200).objects, []);
      assertError(await alice.client.get(`${FRAMES}${frame.id}/content/?limit=abc`), 400, 'invalid_parameter');
      assertError(await bob.client.get(`${FRAMES}${frame.id}/content/`), 404, 'not_found');
    });

    it('gives a template for create-in-frame and appends one datum or a batch', async () => {
      const sb = await newSwitchboard(alice.client);
      const frame = await addFrame(alice.client, sb, 'string', [{ value: 'a' }]);
      const template = expectStatus<Obj>(await alice.client.get(`/api/v1/datum/create-in-frame/${frame.id}/`), 200);
      assert.deepEqual(template, { value: '', content_type: '/api/v1/type/string/', frame: frame.resource_uri });
      const one = expectStatus<Obj>(await alice.client.post(`/api/v1/datum/create-in-frame/${frame.id}/`, { value: 'b' }), 201);
      assert.deepEqual(one.objects, [{ value: 'b', index: 1 }]);
      assert.equal(one.frame.size, 2);
      const batch = expectStatus<Obj>(
        await alice.client.post(`/api/v1/datum/create-in-frame/${frame.id}/`, { objects: [{ value: 'c' }, { value: 'd' }] }),
        201,
      );
      assert.deepEqual(
        batch.objects.map((o: Obj) => o.index),
        [2, 3],
      );
      assert.deepEqual(await contentOf(alice.client, frame), [{ value: 'a' }, { value: 'b' }, { value: 'c' }, { value: 'd' }]);
      assertField(
        await alice.client.post(`/api/v1/datum/create-in-frame/${frame.id}/`, { objects: [{ value: 'e' }, { value: 5 }] }),
        400,
        'invalid_value',
        /^objects\[1\]/,
      );
      assert.equal((await get(alice.client, frame.resource_uri)).size, 4);
      assertError(await bob.client.post(`/api/v1/datum/create-in-frame/${frame.id}/`, { value: 'x' }), 404, 'not_found');
    });

    it('refuses changing the type of a linked frame, but not of a free one', async () => {
      const sb = await newSwitchboard(alice.client);
      const frame = await addFrame(alice.client, sb, 'string');
      const free = await addFrame(alice.client, sb, 'string');
      const upper = await addNode(alice.client, sb, 'string.upper');
      await link(alice.client, upper, 'value', frame, true);
      assertField(await alice.client.patch(frame.resource_uri, { content_type: 'int' }), 400, 'frame_linked', 'content_type');
      assert.equal((await get(alice.client, frame.resource_uri)).type_name, 'string');
      const changed = expectStatus<Obj>(await alice.client.patch(free.resource_uri, { content_type: 'int' }), 200);
      assert.equal(changed.type_name, 'int');
      assert.equal(changed.content_type, '/api/v1/type/int/');
    });
  });

  it('renders a note’s Markdown as sanitised HTML', async () => {
    const sb = await newSwitchboard(alice.client);
    const text = [
      'Check **levels** daily.',
      '',
      '<script>alert(1)</script>',
      '',
      '<img src="x.png" onerror="alert(2)">',
      '',
      '[click](javascript:alert(3)) and [docs](https://example.org/docs)',
    ].join('\n');
    const note = expectStatus<Obj>(
      await alice.client.post(NOTES, { switchboard: sb.resource_uri, text, ui_x: 10, ui_y: 20 }),
      201,
    );
    assert.equal(note.text, text);
    assert.match(note.html, /<strong>levels<\/strong>/);
    assert.doesNotMatch(note.html, /<script/i);
    assert.doesNotMatch(note.html, /alert\(1\)/);
    assert.doesNotMatch(note.html, /onerror/i);
    assert.doesNotMatch(note.html, /javascript:/i);
    assert.match(note.html, /href="https:\/\/example\.org\/docs"/);
    const changed = expectStatus<Obj>(await alice.client.patch(note.resource_uri, { text: '*new*' }), 200);
    assert.match(changed.html, /<em>new<\/em>/);
  });

  describe('function list (spec 000 §5, §9)', () => {
    const names = async (c: Client, query: string) => (await list(c, `${FUNCTIONS}?${query}`)).map((f) => f.name as string);
    const total = async (c: Client, query: string) =>
      expectStatus<{ meta: { total_count: number } }>(await c.get(`${FUNCTIONS}?${query}`), 200).meta.total_count;

    it('does not filter with a one-character query', async () => {
      const all = await names(alice.client, '');
      assert.ok(all.length > 10);
      assert.deepEqual(await names(alice.client, 'q=s'), all);
      assert.deepEqual(await names(alice.client, 'q=z'), all);
    });

    it('matches case-insensitively over name, verbose name and doc, in both languages', async () => {
      assert.ok((await names(alice.client, 'q=UPPER')).includes('string.upper'));
      assert.ok((await names(alice.client, 'q=Großbuchst')).includes('string.upper'), 'German verbose name');
      assert.ok((await names(alice.client, 'q=unicode')).includes('string.length'), 'English doc');
      assert.ok((await names(alice.client, 'q=nachkommastellen')).includes('number.round'), 'German doc');
      assert.deepEqual(await names(alice.client, 'q=zzzznothing'), []);
      assert.deepEqual(await names(alice.client, `q=${encodeURIComponent('texte verbinden')}`), ['string.concat']);
    });

    it('gives names, docs and port lists in the caller’s language', async () => {
      const de = expectStatus<Obj>(
        await alice.client.get(`${FUNCTIONS}string.upper/`, { headers: { 'Accept-Language': 'de' } }),
        200,
      );
      assert.deepEqual([de.verbose_name, de.doc], ['Großbuchstaben', 'Schreibt jeden Text in Großbuchstaben.']);
      const en = await list(alice.client, `${FUNCTIONS}?q=upper`);
      assert.equal(en.find((f) => f.name === 'string.upper')?.verbose_name, 'Upper case');
      assert.equal(de.namespace, 'string');
      assert.deepEqual(
        de.inputs.map((p: Obj) => [p.name, p.content_type, p.is_optional]),
        [['value', 'string', false]],
      );
      assertError(await alice.client.get(`${FUNCTIONS}nosuch.fn/`), 404, 'not_found');
    });

    it('includes hidden functions only for a query ending with !', async () => {
      assert.ok(!(await names(alice.client, '')).some((n) => n.startsWith('test.')));
      assert.ok(!(await names(alice.client, 'q=fail')).includes('test.fail'));
      const withHidden = await list(alice.client, `${FUNCTIONS}?q=${encodeURIComponent('fail!')}`);
      const fail = withHidden.find((f) => f.name === 'test.fail');
      assert.ok(fail, JSON.stringify(withHidden.map((f) => f.name)));
      assert.equal(fail.hidden, true);
      assert.ok((await names(alice.client, `q=${encodeURIComponent('!')}`)).includes('test.wait'));
    });

    it('ranks functions with a port of the searched type first, then shorter names', async () => {
      const found = await names(alice.client, 'q=number');
      const numberPorts = found.filter((n) => n.startsWith('number.'));
      const others = found.filter((n) => !n.startsWith('number.'));
      assert.ok(others.includes('frame.count'), 'frame.count’s doc mentions "number"');
      assert.deepEqual(found, [...numberPorts, ...others], 'functions with number ports first');
      const byLength = (list: string[]) => [...list].sort((a, b) => a.length - b.length || a.localeCompare(b));
      assert.deepEqual(numberPorts, byLength(numberPorts));
      assert.deepEqual(others, byLength(others));
    });

    it('filters by input and output type along the base chain, exact matches first', async () => {
      const takesInt = await list(alice.client, `${FUNCTIONS}?input_type=int`);
      const ids = takesInt.map((f) => f.name as string);
      assert.ok(ids.includes('number.add'), 'a number port takes int');
      assert.ok(ids.includes('frame.count'), 'an any port takes int');
      assert.ok(!ids.includes('string.upper'));
      const exact = (f: Obj) => f.inputs.some((p: Obj) => p.content_type === 'int');
      const firstDerived = takesInt.findIndex((f) => !exact(f));
      assert.ok(firstDerived > 0, 'some functions have an int input');
      assert.ok(
        takesInt.slice(firstDerived).every((f) => !exact(f)),
        `exact matches first: ${ids.join(', ')}`,
      );

      const givesNumber = await names(alice.client, 'output_type=number');
      assert.ok(givesNumber.includes('string.length'), 'an int output is a number');
      assert.ok(givesNumber.includes('number.add'));
      assert.ok(!givesNumber.includes('number.compare'), 'a bool output is not');
      assert.ok(!givesNumber.includes('string.upper'));

      assertField(await alice.client.get(`${FUNCTIONS}?input_type=nosuchtype`), 400, 'invalid_parameter', 'input_type');
      assertField(await alice.client.get(`${FUNCTIONS}?output_type=nosuchtype`), 400, 'invalid_parameter', 'output_type');
    });

    it('filters by namespace, several comma separated', async () => {
      const found = await names(alice.client, 'namespace=string,bool');
      assert.ok(found.includes('string.upper') && found.includes('bool.not'));
      assert.ok(found.every((n) => n.startsWith('string.') || n.startsWith('bool.')));
      assert.ok((await names(alice.client, 'namespace=bool')).every((n) => n.startsWith('bool.')));
    });

    it('lists the caller’s favourites after favor/ and not after unfavor/ (both need the CSRF header)', async () => {
      assert.deepEqual(await names(bob.client, 'filter=favorites'), []);
      assertError(await bob.client.get(`${FUNCTIONS}string.upper/favor/`, { csrf: false }), 403, 'csrf_missing');
      assert.deepEqual(await names(bob.client, 'filter=favorites'), []);
      const favored = expectStatus<Obj>(await bob.client.get(`${FUNCTIONS}string.upper/favor/`), 200);
      assert.equal(favored.favored, true);
      assert.deepEqual(await names(bob.client, 'filter=favorites'), ['string.upper']);
      assert.equal((await get(bob.client, `${FUNCTIONS}string.upper/`)).favored, true);
      assert.deepEqual(await names(alice.client, 'filter=favorites'), [], 'favourites are per user');
      assertError(await bob.client.get(`${FUNCTIONS}string.upper/unfavor/`, { csrf: false }), 403, 'csrf_missing');
      assert.deepEqual(await names(bob.client, 'filter=favorites'), ['string.upper']);
      expectStatus(await bob.client.get(`${FUNCTIONS}string.upper/unfavor/`), 200);
      assert.deepEqual(await names(bob.client, 'filter=favorites'), []);
      assertError(await bob.client.get(`${FUNCTIONS}nosuch.fn/favor/`), 404, 'not_found');
      assertField(await bob.client.get(`${FUNCTIONS}?filter=popular`), 400, 'invalid_parameter', 'filter');
    });

    it('caps limit at 1000 and pages with offset', async () => {
      const capped = expectStatus<Obj>(await alice.client.get(`${FUNCTIONS}?limit=5000`), 200);
      assert.equal(capped.meta.limit, 1000);
      const all = capped.objects.map((f: Obj) => f.name);
      const page = expectStatus<Obj>(await alice.client.get(`${FUNCTIONS}?offset=2&limit=3`), 200);
      assert.deepEqual(
        page.objects.map((f: Obj) => f.name),
        all.slice(2, 5),
      );
      assert.equal(page.meta.total_count, all.length);
      assert.equal(await total(alice.client, 'limit=1'), all.length);
    });
  });

  describe('context view', () => {
    const relation = (from: string, kind: string, to: string) => ({ from, kind, to });

    it('shows a depot a switchboard’s run read as providing data for it, both ways', async () => {
      const depot = await approvedDepot(alice.client, 'string', ['a', 'b']);
      const sb = await newSwitchboard(alice.client);
      await addNode(alice.client, sb, 'depot.read', [{ name: 'depot', default_value: { value: depot.resource_uri } }]);
      const before = await get(alice.client, `${sb.resource_uri}contextview/`);
      assert.ok(!before.objects.some((o: Obj) => o.resource_uri === depot.resource_uri), 'not before it ran');
      assert.equal((await runAndWait(t, alice.client, sb)).status, 'success');
      const view = await get(alice.client, `${sb.resource_uri}contextview/`);
      assert.equal(view.type, 'switchboard');
      assert.deepEqual(view.relations, [relation(depot.resource_uri, 'provides_data_for', sb.resource_uri)]);
      assert.deepEqual(view.objects, [{ type: 'depot', resource_uri: depot.resource_uri, name: depot.name }]);
      const depotView = await get(alice.client, `${depot.resource_uri}contextview/`);
      assert.ok(
        depotView.relations.some(
          (r: Obj) => r.from === depot.resource_uri && r.kind === 'provides_data_for' && r.to === sb.resource_uri,
        ),
        JSON.stringify(depotView),
      );
    });

    it('shows a switchboard that stored into a depot as providing data for the depot', async () => {
      const depot = await newDepot(alice.client, 'string');
      const sb = await newSwitchboard(alice.client);
      const data = await addFrame(alice.client, sb, 'string', [{ value: 'stored' }]);
      const store = await addNode(alice.client, sb, 'depot.store', [
        { name: 'depot', default_value: { value: depot.resource_uri } },
      ]);
      await link(alice.client, store, 'datums', data, true);
      assert.equal((await runAndWait(t, alice.client, sb)).status, 'success');
      const view = await get(alice.client, `${sb.resource_uri}contextview/`);
      assert.deepEqual(view.relations, [relation(sb.resource_uri, 'provides_data_for', depot.resource_uri)]);
      const depotView = await get(alice.client, `${depot.resource_uri}contextview/`);
      assert.deepEqual(depotView.relations, [relation(sb.resource_uri, 'provides_data_for', depot.resource_uri)]);
      assert.deepEqual(depotView.objects, [{ type: 'switchboard', resource_uri: sb.resource_uri, name: sb.name }]);
      // Someone who may read the depot but not the switchboard does not learn of it.
      expectStatus(
        await alice.client.patch(depot.resource_uri, { permissions: [{ user: userUri(bob.id), perms: ['read'] }] }),
        200,
      );
      const bobView = await get(bob.client, `${depot.resource_uri}contextview/`);
      assert.deepEqual(bobView.relations, []);
      assert.deepEqual(bobView.objects, []);
    });

    it('shows the workflow that has the switchboard as its step as executing it', async () => {
      const sb = await newSwitchboard(alice.client);
      const wf = expectStatus<Obj>(
        await alice.client.post(WORKFLOWS, { name: 'Nightly', steps: [{ switchboard: sb.resource_uri }] }),
        201,
      );
      const view = await get(alice.client, `${sb.resource_uri}contextview/`);
      assert.deepEqual(view.relations, [relation(wf.resource_uri, 'executes', sb.resource_uri)]);
      assert.deepEqual(view.objects, [{ type: 'workflow', resource_uri: wf.resource_uri, name: 'Nightly' }]);
      const wfView = await get(alice.client, `${wf.resource_uri}contextview/`);
      assert.deepEqual(wfView.relations, [relation(wf.resource_uri, 'executes', sb.resource_uri)]);
    });

    it('does not show a depot to a user who may not read it', async () => {
      const depot = await approvedDepot(alice.client, 'string', ['secret']);
      const sb = await newSwitchboard(alice.client);
      await addNode(alice.client, sb, 'depot.read', [{ name: 'depot', default_value: { value: depot.resource_uri } }]);
      assert.equal((await runAndWait(t, alice.client, sb)).status, 'success');
      await grant(alice.client, sb, bob, ['read']);
      const view = await get(bob.client, `${sb.resource_uri}contextview/`);
      assert.deepEqual(view.relations, []);
      assert.deepEqual(view.objects, []);
      assert.equal((await get(alice.client, `${sb.resource_uri}contextview/`)).objects.length, 1);
    });
  });

  describe('export, import and duplicate', () => {
    /** x → upper → y; concat(y, sep param) → z; a note. */
    async function sample(c: Client): Promise<Obj> {
      const sb = await newSwitchboard(c, { description: 'to be copied', ui_zoom: 2 });
      const x = await addFrame(c, sb, 'string', [{ value: 'a' }, { value: 'b' }], { name: 'x', ui_x: 10, ui_y: 20 });
      const y = await addFrame(c, sb, 'string', undefined, { name: 'y' });
      const z = await addFrame(c, sb, 'string', undefined, { name: 'z', frame_type: 2 });
      const upper = await addNode(c, sb, 'string.upper');
      const concat = await addNode(c, sb, 'string.concat', [
        { name: 'b', default_value: { value: '!' } },
        { name: 'separator', default_value: { value: '-' } },
      ]);
      await link(c, upper, 'value', x, true);
      await link(c, upper, 'result', y, false);
      await link(c, concat, 'a', y, true);
      await link(c, concat, 'result', z, false);
      expectStatus(await c.post(NOTES, { switchboard: sb.resource_uri, text: 'Read **me**', ui_x: 1, ui_y: 2 }), 201);
      return sb;
    }

    /** A switchboard's canvas with ids replaced by names, to compare copies. */
    async function shape(c: Client, sb: Obj): Promise<unknown> {
      const r = await get(c, `${sb.resource_uri}reload/`);
      const frameName = new Map<string, string>(r.frames.map((f: Obj) => [f.resource_uri, f.name]));
      const nodeName = new Map<string, string>(r.nodes.map((n: Obj) => [n.resource_uri, n.func]));
      const frames = [];
      for (const f of r.frames)
        frames.push([f.name, f.type_name, f.frame_type, f.ui_x, f.ui_y, f.size, await contentOf(c, f as Obj)]);
      return {
        description: r.switchboard.description,
        ui_zoom: r.switchboard.ui_zoom,
        nodes: r.nodes.map((n: Obj) => [n.func, n.ports]),
        frames,
        links: r.links
          .map((l: Obj) => [nodeName.get(l.node), l.name, l.is_input, frameName.get(l.frame), l.list_index, l.dict_key])
          .sort(),
        notes: r.notes.map((n: Obj) => [n.text, n.ui_x, n.ui_y]),
      };
    }

    it('exports a JSON file that imports as an equal switchboard, which runs', async () => {
      const sb = await sample(alice.client);
      const res = await alice.client.get(`${sb.resource_uri}export/`);
      const file = expectStatus<Obj>(res, 200);
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename=".+\.json"$/);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(file.format, 'werkbank-switchboard');
      const imported = expectStatus<Obj>(await bob.client.post(`${SWITCHBOARDS}import/`, file), 201);
      assert.notEqual(imported.id, sb.id);
      assert.equal(imported.name, sb.name);
      assert.equal(imported.owner, userUri(bob.id));
      assert.deepEqual(await shape(bob.client, imported), await shape(alice.client, sb));
      const exec = await runAndWait(t, bob.client, imported);
      assert.equal(exec.status, 'success');
      const z = (await get(bob.client, `${imported.resource_uri}reload/`)).frames.find((f: Obj) => f.name === 'z');
      assert.deepEqual(await contentOf(bob.client, z), [{ value: 'A-!' }, { value: 'B-!' }]);
    });

    it('refuses a file with unknown functions, listing them, and creates nothing', async () => {
      const sb = await sample(alice.client);
      const file = await get(alice.client, `${sb.resource_uri}export/`);
      file.nodes[0].func = 'geo.buffer';
      file.nodes.push({ ...file.nodes[1], ref: 999, func: 'geo.dissolve' });
      const before = await switchboardCount(alice.client);
      const res = await alice.client.post(`${SWITCHBOARDS}import/`, file);
      assertError(res, 400, 'unknown_function');
      assert.match(res.body.reason, /geo\.buffer/);
      assert.match(res.body.reason, /geo\.dissolve/);
      assert.equal(await switchboardCount(alice.client), before);
    });

    it('refuses a file with a broken link, naming it, and leaves nothing half-created', async () => {
      const sb = await sample(alice.client);
      const file = await get(alice.client, `${sb.resource_uri}export/`);
      const before = await switchboardCount(alice.client);
      const nodesBefore = expectStatus<Obj>(await alice.client.get(`${NODES}?limit=1`), 200).meta.total_count;
      const dangling = structuredClone(file);
      dangling.links[2].frame = 987654;
      assertField(await alice.client.post(`${SWITCHBOARDS}import/`, dangling), 400, 'invalid_file', 'links[2]');
      const mistyped = structuredClone(file);
      mistyped.frames[0].content_type = 'int';
      mistyped.frames[0].items = [{ value: 1 }];
      const res = await alice.client.post(`${SWITCHBOARDS}import/`, mistyped);
      assertError(res, 400, 'type_mismatch');
      assert.match(String(res.body.field), /^links\[0\]/);
      const badItem = structuredClone(file);
      badItem.frames[0].items = [{ value: 'ok' }, { value: 3 }];
      assertField(await alice.client.post(`${SWITCHBOARDS}import/`, badItem), 400, 'invalid_value', /^frames\[0\]\.content\[1\]/);
      assertError(await alice.client.post(`${SWITCHBOARDS}import/`, { format: 'something else' }), 400, 'invalid_file');
      assert.equal(await switchboardCount(alice.client), before);
      assert.equal(expectStatus<Obj>(await alice.client.get(`${NODES}?limit=1`), 200).meta.total_count, nodesBefore);
    });

    it('duplicates a switchboard as “Copy of …” with everything on it', async () => {
      const sb = await sample(alice.client);
      const copy = expectStatus<Obj>(await alice.client.post(`${sb.resource_uri}duplicate/`, {}), 201);
      assert.equal(copy.name, `Copy of ${sb.name}`);
      assert.notEqual(copy.id, sb.id);
      assert.deepEqual(await shape(alice.client, copy), await shape(alice.client, sb));
      const de = expectStatus<Obj>(
        await alice.client.post(`${sb.resource_uri}duplicate/`, {}, { headers: { 'Accept-Language': 'de' } }),
        201,
      );
      assert.equal(de.name, `Kopie von ${sb.name}`);
      assertError(await bob.client.post(`${sb.resource_uri}duplicate/`, {}), 404, 'not_found');
    });
  });

  it('reloads the whole canvas in one reply: switchboard, nodes, frames, links, notes', async () => {
    const sb = await newSwitchboard(alice.client);
    const a = await addFrame(alice.client, sb, 'string', [{ value: 'x' }]);
    const node = await addNode(alice.client, sb, 'string.upper');
    const l = await link(alice.client, node, 'value', a, true);
    const note = expectStatus<Obj>(await alice.client.post(NOTES, { switchboard: sb.resource_uri, text: 'hi' }), 201);
    const other = await newSwitchboard(alice.client);
    await addFrame(alice.client, other, 'string');
    const r = await get(alice.client, `${sb.resource_uri}reload/`);
    assert.equal(r.switchboard.resource_uri, sb.resource_uri);
    assert.deepEqual(
      r.nodes.map((n: Obj) => n.resource_uri),
      [node.resource_uri],
    );
    assert.deepEqual(
      r.frames.map((f: Obj) => f.resource_uri),
      [a.resource_uri],
    );
    assert.deepEqual(
      r.links.map((x: Obj) => x.resource_uri),
      [l.resource_uri],
    );
    assert.deepEqual(
      r.notes.map((x: Obj) => [x.resource_uri, x.html]),
      [[note.resource_uri, note.html]],
    );
    assert.deepEqual(
      r.nodes[0].links.map((x: Obj) => [x.resource_uri, x.name, x.frame, x.is_input]),
      [[l.resource_uri, 'value', a.resource_uri, true]],
    );
    assertError(await bob.client.get(`${sb.resource_uri}reload/`), 404, 'not_found');
  });

  describe('creating a switchboard from a datum', () => {
    it('makes a switchboard with a frame holding the datum', async () => {
      const depot = await newDepot(alice.client, 'string');
      const d = await addDatum(alice.client, depot, { value: 'Elbe' });
      const res = await alice.client.get(`${CREATE_FROM_DATUM}?datum=${encodeURIComponent(d.resource_uri)}&search=river`);
      const created = expectStatus<Obj>(res, 200);
      assert.equal(created.search, 'river');
      const r = await get(alice.client, `${SWITCHBOARDS}${created.switchboard_id}/reload/`);
      assert.equal(r.switchboard.owner, userUri(alice.id));
      assert.equal(r.frames.length, 1);
      assert.equal(r.frames[0].resource_uri, created.frame);
      assert.equal(r.frames[0].type_name, 'string');
      assert.deepEqual(await contentOf(alice.client, r.frames[0]), [{ value: 'Elbe' }]);
    });

    it('answers 404 to a user who may not read the depot, and creates nothing', async () => {
      const depot = await newDepot(alice.client, 'string');
      const d = await addDatum(alice.client, depot, { value: 'secret' });
      const before = await switchboardCount(bob.client);
      assertError(await bob.client.get(`${CREATE_FROM_DATUM}?datum=${encodeURIComponent(d.resource_uri)}`), 404, 'not_found');
      assert.equal(await switchboardCount(bob.client), before);
      assertError(
        await alice.client.get(`${CREATE_FROM_DATUM}?datum=${encodeURIComponent(d.resource_uri)}`, { csrf: false }),
        403,
        'csrf_missing',
      );
    });
  });

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
