import assert from 'node:assert/strict';
import type { TestServer } from '@werkbank/testing/node';
import { assertError, EVENTS, expectStatus, userUri } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  assertField,
  contentOf,
  FRAMES,
  FUNCTIONS,
  get,
  link,
  list,
  newSwitchboard,
  NODES,
  NOTES,
  SB_FOLDERS,
  switchboardServer,
  SWITCHBOARDS,
  type Obj,
  type User,
} from './switchboard-support';
import { Engine } from '../src/node/engine';
import { SwitchboardFrameStorageContext1764500100000 } from '../src/node/frame-storage-migration';

/**
 * The switchboard canvas through the API (spec 000 §3): switchboards and folders, nodes, frames
 * and notes. Links are in switchboard-links.spec.ts.
 */
describe('Switchboard model: canvas', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let t: TestServer;
  let alice: User;
  let bob: User;
  before(() => ({ t, alice, bob } = server.get()));

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

    it('writes no activity-feed entry for a saved pan or zoom of the canvas, but one for a real change (issue 14 item 18)', async () => {
      const sb = await newSwitchboard(alice.client, { name: 'Ansicht' });
      const entries = async () =>
        (
          expectStatus(await alice.client.get(`${EVENTS}?limit=1000&content_kind=switchboard`), 200).objects as Array<{
            key: string;
            content_object: string | null;
          }>
        ).filter((e) => e.content_object === sb.resource_uri);
      const before = (await entries()).length;
      expectStatus(await alice.client.patch(sb.resource_uri, { ui_offset_x: 1200, ui_offset_y: 900, ui_zoom: 0.8 }), 200);
      expectStatus(await alice.client.patch(sb.resource_uri, { ui_zoom: 1.2 }), 200);
      assert.equal((await entries()).length, before);
      assert.equal((await get(alice.client, sb.resource_uri)).ui_zoom, 1.2, 'the viewport is saved');
      expectStatus(await alice.client.patch(sb.resource_uri, { name: 'Ansicht 2', ui_zoom: 1 }), 200);
      const after = await entries();
      assert.equal(after.length, before + 1);
      assert.equal(after[0].key, 'update');
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
    it('keeps the storage setting an object through create, change and reload, and refuses any other shape (issue 14 item 11)', async () => {
      const sb = await newSwitchboard(alice.client);
      const frame = expectStatus<Obj>(
        await alice.client.post(FRAMES, {
          switchboard: sb.resource_uri,
          content_type: 'string',
          storage_context: { kind: 'lazy', keep: 1 },
        }),
        201,
      );
      assert.deepEqual(frame.storage_context, { kind: 'lazy', keep: 1 });
      const changed = expectStatus<Obj>(
        await alice.client.patch(frame.resource_uri, { storage_context: { kind: 'deferred', keep: 1 } }),
        200,
      );
      assert.deepEqual(changed.storage_context, { kind: 'deferred', keep: 1 });
      assert.deepEqual((await get(alice.client, frame.resource_uri)).storage_context, { kind: 'deferred', keep: 1 });
      const [stored] = (await t.server.db.dataSource.query(
        `SELECT jsonb_typeof(storage_context) AS kind FROM switchboard_frame WHERE id = $1`,
        [frame.id],
      )) as { kind: string }[];
      assert.equal(stored.kind, 'object');
      for (const bad of ['{"kind":"deferred"}', ['deferred'], 3]) {
        assertField(
          await alice.client.patch(frame.resource_uri, { storage_context: bad }),
          400,
          'invalid_field',
          'storage_context',
        );
      }
      assert.equal((await alice.client.patch(frame.resource_uri, { storage_context: null })).body.storage_context, null);
    });

    it('repairs storage settings stored as JSON strings, also those a later save spread into characters', async () => {
      const sb = await newSwitchboard(alice.client);
      const twice = await addFrame(alice.client, sb, 'string');
      const spread = await addFrame(alice.client, sb, 'string');
      const q = (sql: string, params: unknown[]) => t.server.db.dataSource.query(sql, params);
      // As the server stored them before: the object's JSON as a jsonb string, and the dialog's save of that.
      await q(`UPDATE switchboard_frame SET storage_context = to_jsonb($2::text) WHERE id = $1`, [
        twice.id,
        '{"kind":"deferred"}',
      ]);
      const chars = Object.fromEntries([...'{"kind":"x"}'].map((c, i) => [String(i), c]));
      await q(`UPDATE switchboard_frame SET storage_context = to_jsonb($2::text) WHERE id = $1`, [
        spread.id,
        JSON.stringify({ ...chars, kind: 'lazy' }),
      ]);
      const runner = t.server.db.dataSource.createQueryRunner();
      try {
        await new SwitchboardFrameStorageContext1764500100000().up(runner);
      } finally {
        await runner.release();
      }
      assert.deepEqual((await get(alice.client, twice.resource_uri)).storage_context, { kind: 'deferred' });
      assert.deepEqual((await get(alice.client, spread.resource_uri)).storage_context, { kind: 'lazy' });
    });

    it('empties a frame whose data type changes through the API, as the dialog does; content sent along fits the new type', async () => {
      const sb = await newSwitchboard(alice.client);
      const frame = await addFrame(alice.client, sb, 'string', [{ value: 'a' }, { value: 'b' }]);
      const changed = expectStatus<Obj>(await alice.client.patch(frame.resource_uri, { content_type: 'int' }), 200);
      assert.equal(changed.size, 0);
      assert.equal(changed.text_repr, '');
      assert.deepEqual(await contentOf(alice.client, frame), []);
      assertField(
        await alice.client.patch(frame.resource_uri, { content_type: 'bool', content: [{ value: 'x' }] }),
        400,
        'invalid_value',
        /^content\[0\]/,
      );
      assert.equal((await get(alice.client, frame.resource_uri)).type_name, 'int', 'nothing half-written');
      const both = expectStatus<Obj>(
        await alice.client.patch(frame.resource_uri, { content_type: 'bool', content: [{ value: true }] }),
        200,
      );
      assert.equal(both.size, 1);
      assert.deepEqual(await contentOf(alice.client, frame), [{ value: true }]);
      // The same type again keeps the items.
      expectStatus(await alice.client.patch(frame.resource_uri, { content_type: 'bool' }), 200);
      assert.deepEqual(await contentOf(alice.client, frame), [{ value: true }]);
    });
  });

  describe('notes', () => {
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
  });
});
