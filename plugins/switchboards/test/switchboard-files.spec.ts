import assert from 'node:assert/strict';
import type { TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, TAGS, userUri, type Client } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  assertField,
  contentOf,
  get,
  grant,
  link,
  newSwitchboard,
  NODES,
  NOTES,
  runAndWait,
  SB_FOLDERS,
  switchboardServer,
  SWITCHBOARDS,
  WORKFLOWS,
  type Obj,
  type User,
} from './switchboard-support';
import { addDatum, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';

const CREATE = '/api/v2/switchboard/create/';
const CREATE_FROM_DATUM = '/api/v2/switchboard/create/datum/';

/**
 * Switchboards as a whole through the API (spec 000 §3, §7): the creation calls, context view,
 * export, import and duplicate, and reloading the canvas in one reply.
 */
describe('Switchboard model: creation, files and context', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let t: TestServer;
  let alice: User;
  let bob: User;
  before(() => ({ t, alice, bob } = server.get()));

  const switchboardCount = async (c: Client) =>
    expectStatus<{ meta: { total_count: number } }>(await c.get(`${SWITCHBOARDS}?limit=1`), 200).meta.total_count;
  const approvedDepot = async (c: Client, type: string, values: unknown[]): Promise<Depot> => {
    const depot = await newDepot(c, type);
    let moment = 0;
    for (const value of values) moment = (await addDatum(c, depot, { value })).moment_id;
    expectStatus(await c.post(`/api/v1/moment/${moment}/approve/`, {}), 200);
    return depot;
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

  describe('reload', () => {
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
});
