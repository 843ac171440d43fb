import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, userUri, type Client } from '@werkbank/testing/node';
import { addDatum, DEPOTS, newDepot, newFolder, valuesAt, type Depot, type Folder } from './magazine-support';

interface TypeInfo {
  name: string;
  template: Record<string, unknown>;
}

/** Depot folders, depots, permissions and type validation (spec 002 §2–§6, spec 001 §3.6). */
describe('magazine: folders, depots, permissions, types', () => {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => {
    await t?.close();
  });

  describe('folders', () => {
    it('builds full paths and a tree, and lists depots by folder', async () => {
      const top = await newFolder(admin, 'Stadt');
      const sub = await newFolder(admin, 'Verkehr', top);
      assert.equal(sub.full_path, 'Stadt/Verkehr');
      assert.equal(sub.parent, top.resource_uri);
      const inSub = await newDepot(admin, 'string', { folder: sub.resource_uri });
      const atRoot = await newDepot(admin, 'string');
      const tree = expectStatus<{ objects: Array<Folder & { children: Folder[]; depot_count: number }> }>(
        await admin.get('/api/v1/depotfoldertree/'),
        200,
      );
      const node = tree.objects.find((f) => f.id === top.id)!;
      assert.deepEqual((node as unknown as { access: string[] }).access, ['read', 'write']);
      assert.deepEqual(
        node.children.map((c) => c.name),
        ['Verkehr'],
      );
      assert.equal((node.children[0] as unknown as { depot_count: number }).depot_count, 1);
      const bySub = expectStatus<{ objects: Depot[] }>(await admin.get(`${DEPOTS}by-folder/?folder=${sub.id}`), 200);
      assert.deepEqual(
        bySub.objects.map((d) => d.id),
        [inSub.id],
      );
      const byRoot = expectStatus<{ objects: Depot[] }>(await admin.get(`${DEPOTS}by-folder/?folder=&limit=1000`), 200);
      assert.ok(byRoot.objects.some((d) => d.id === atRoot.id));
      assert.ok(!byRoot.objects.some((d) => d.id === inSub.id));
      assert.equal(expectStatus<{ folder_path: string }>(await admin.get(inSub.resource_uri), 200).folder_path, 'Stadt/Verkehr');
    });

    it('moves a folder with PATCH folder and refuses a move under itself or a descendant', async () => {
      const a = await newFolder(admin, 'A');
      const b = await newFolder(admin, 'B', a);
      const c = await newFolder(admin, 'C', b);
      const self = await admin.patch(a.resource_uri, { folder: a.resource_uri });
      assertError(self, 400, 'folder_cycle', 'A folder cannot be moved into itself or into one of its subfolders.');
      assert.equal(self.body.field, 'folder');
      assertError(await admin.patch(a.resource_uri, { folder: c.resource_uri }), 400, 'folder_cycle');
      assertError(await admin.patch(a.resource_uri, { parent: b.resource_uri }), 400, 'folder_cycle');
      const moved = expectStatus<Folder>(await admin.patch(c.resource_uri, { folder: null }), 200);
      assert.equal(moved.parent, null);
      assert.equal(moved.full_path, 'C');
      const back = expectStatus<Folder>(await admin.patch(c.resource_uri, { folder: a.resource_uri }), 200);
      assert.equal(back.full_path, 'A/C');
    });

    it('refuses to delete a folder that is not empty, in the caller’s language', async () => {
      const f = await newFolder(admin, 'Voll');
      const d = await newDepot(admin, 'string', { folder: f.resource_uri });
      assertError(await admin.delete(f.resource_uri), 409, 'folder_not_empty', /Voll/);
      assertError(
        await admin.delete(f.resource_uri, { headers: { 'Accept-Language': 'de' } }),
        409,
        'folder_not_empty',
        /enthält noch/,
      );
      expectStatus(await admin.delete(d.resource_uri), 204);
      expectStatus(await admin.delete(f.resource_uri), 204);
    });
  });

  describe('depots', () => {
    it('shows folders and depots in their context view (contains), only readable ones', async () => {
      const top = await newFolder(admin, 'Kontext');
      const sub = await newFolder(admin, 'Unterordner', top);
      const depot = await newDepot(admin, 'string', { folder: top.resource_uri });
      const hidden = await newDepot(admin, 'string', { folder: top.resource_uri });
      const other = await t.user();
      expectStatus(
        await admin.patch(top.resource_uri, { permissions: [{ user: `/api/v1/user/${other.id}/`, perms: ['read'] }] }),
        200,
      );
      expectStatus(
        await admin.patch(depot.resource_uri, { permissions: [{ user: `/api/v1/user/${other.id}/`, perms: ['read'] }] }),
        200,
      );
      const ofDepot = expectStatus(await admin.get(`${depot.resource_uri}contextview/`), 200);
      assert.deepEqual(ofDepot.relations, [{ from: top.resource_uri, kind: 'contains', to: depot.resource_uri }]);
      const ofFolder = expectStatus(await admin.get(`${top.resource_uri}contextview/`), 200);
      assert.deepEqual(
        ofFolder.objects.map((o: { resource_uri: string }) => o.resource_uri).sort(),
        [sub.resource_uri, depot.resource_uri, hidden.resource_uri].sort(),
      );
      const ofSub = expectStatus(await admin.get(`${sub.resource_uri}contextview/`), 200);
      assert.deepEqual(ofSub.relations, [{ from: top.resource_uri, kind: 'contains', to: sub.resource_uri }]);
      // Another user sees only what they may read.
      const seen = expectStatus(await other.client.get(`${top.resource_uri}contextview/`), 200);
      assert.deepEqual(
        seen.objects.map((o: { resource_uri: string }) => o.resource_uri),
        [depot.resource_uri],
      );
    });

    it('locks the data type once the depot exists and refuses unknown types', async () => {
      const d = await newDepot(admin, '/api/v1/type/color/');
      assert.equal(d.content_type, '/api/v1/type/color/');
      assertError(await admin.patch(d.resource_uri, { content_type: 'string' }), 400, 'locked_field');
      const unknown = await admin.post(DEPOTS, { name: 'x', content_type: 'nonsense' });
      assertError(unknown, 400, 'invalid_field', /nonsense/);
      assert.equal(unknown.body.field, 'content_type');
    });

    it('takes a style depot as default style only when it is of type style', async () => {
      const style = await newDepot(admin, 'style');
      const other = await newDepot(admin, 'string');
      const d = await newDepot(admin, 'feature', { style_depot: style.resource_uri });
      assert.equal((d as unknown as { style_depot: string }).style_depot, style.resource_uri);
      assertError(await admin.patch(d.resource_uri, { style_depot: other.resource_uri }), 400, 'invalid_field');
      const byType = expectStatus<{ objects: Depot[] }>(await admin.get(`${DEPOTS}by-type/style/?limit=1000`), 200);
      assert.ok(byType.objects.some((x) => x.id === style.id));
      assert.ok(!byType.objects.some((x) => x.id === other.id));
      // by-type includes derived types: color derives from string.
      const color = await newDepot(admin, 'color');
      const strings = expectStatus<{ objects: Depot[] }>(await admin.get(`${DEPOTS}by-type/string/?limit=1000`), 200);
      assert.ok(strings.objects.some((x) => x.id === color.id));
      assertError(await admin.get(`${DEPOTS}by-type/nonsense/`), 404, 'not_found');
    });

    it('deletes a depot with its moments and datums', async () => {
      const d = await newDepot(admin, 'string');
      const datum = await addDatum(admin, d, { value: 'x' });
      expectStatus(await admin.delete(d.resource_uri), 204);
      assertError(await admin.get(`/api/v1/datum/${datum.index}/`), 404, 'not_found');
      assertError(await admin.get(`/api/v1/moment/${datum.moment_id}/`), 404, 'not_found');
    });
  });

  describe('permissions (read_depot, write_depot)', () => {
    it('hides a depot, its moments and datums from users without read; refuses writes without write', async () => {
      const reader = await t.user();
      const stranger = await t.user();
      const d = await newDepot(admin, 'string');
      const datum = await addDatum(admin, d, { value: 'secret' });
      expectStatus(await admin.patch(d.resource_uri, { permissions: [{ user: userUri(reader.id), perms: ['read'] }] }), 200);

      for (const path of [
        d.resource_uri,
        `/api/v1/datum/${datum.index}/`,
        `/api/v1/datum/by-depot/${d.id}/`,
        `/api/v1/datum/by-moment/${datum.moment_id}/`,
        `/api/v1/moment/${datum.moment_id}/`,
        `/api/v1/moment/?depot_id=${d.id}`,
      ]) {
        assertError(await stranger.client.get(path), 404, 'not_found');
        expectStatus(await reader.client.get(path), 200);
      }
      assert.deepEqual((expectStatus(await reader.client.get(d.resource_uri), 200) as { access: string[] }).access, ['read']);
      const list = expectStatus<{ objects: Depot[] }>(await stranger.client.get(`${DEPOTS}?limit=1000`), 200);
      assert.ok(!list.objects.some((x) => x.id === d.id));

      assertError(await reader.client.post(`/api/v1/datum/create-in-depot/${d.id}/`, { value: 'x' }), 403, 'permission_denied');
      assertError(await reader.client.patch(`/api/v1/datum/${datum.index}/`, { value: 'x' }), 403, 'permission_denied');
      assertError(await reader.client.delete(`/api/v1/datum/${datum.index}/`), 403, 'permission_denied');
      assertError(await reader.client.post(`/api/v1/moment/${datum.moment_id}/approve/`, {}), 403, 'permission_denied');
      assertError(await reader.client.post(`/api/v1/moment/${datum.moment_id}/restore/`, {}), 403, 'permission_denied');
      assertError(await reader.client.delete(`/api/v1/moment/${datum.moment_id}/`), 403, 'permission_denied');
      assertError(await stranger.client.post(`/api/v1/datum/create-in-depot/${d.id}/`, { value: 'x' }), 404, 'not_found');
      assert.deepEqual(await valuesAt(admin, d), ['secret']);

      expectStatus(
        await admin.patch(d.resource_uri, { permissions: [{ user: userUri(reader.id), perms: ['read', 'write'] }] }),
        200,
      );
      assert.deepEqual((expectStatus(await reader.client.get(d.resource_uri), 200) as { access: string[] }).access, [
        'read',
        'write',
      ]);
      expectStatus(await reader.client.patch(`/api/v1/datum/${datum.index}/`, { value: 'changed' }), 200);
      assert.deepEqual(await valuesAt(admin, d), ['changed']);
    });

    it('restricts folders by read_depotfolder', async () => {
      const other = await t.user();
      const f = await newFolder(admin, 'Privat');
      assertError(await other.client.get(f.resource_uri), 404, 'not_found');
      const tree = expectStatus<{ objects: Folder[] }>(await other.client.get('/api/v1/depotfoldertree/'), 200);
      assert.ok(!tree.objects.some((x) => x.id === f.id));
      const mine = await newDepot(other.client, 'string');
      const refused = await other.client.patch(mine.resource_uri, { folder: f.resource_uri });
      assertError(refused, 400, 'invalid_field');
      assert.equal(refused.body.field, 'folder');
    });
  });

  describe('type validation per core type', () => {
    let types: TypeInfo[];
    before(async () => {
      types = expectStatus<{ objects: TypeInfo[] }>(await admin.get('/api/v1/type/?limit=1000'), 200).objects;
    });

    it('accepts each core type’s template and refuses an unknown field naming it', async () => {
      // 'any' takes every field by design (generic frames and ports).
      const core = types.filter((x) => !['file', 'any'].includes(x.name));
      assert.ok(core.length >= 28, `core types: ${core.map((x) => x.name).join(', ')}`);
      for (const type of core) {
        const depot = await newDepot(admin, type.name);
        const ok = await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, type.template);
        assert.equal(ok.status, 201, `${type.name}: ${JSON.stringify(ok.body)}`);
        const bad = await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { ...type.template, zz_typo: 1 });
        assertError(bad, 400, 'invalid_value');
        assert.equal(bad.body.field, 'zz_typo', type.name);
      }
    });

    it('names the path of a wrong shape', async () => {
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['bbox', { value: [1, 2, 3] }, 'value'],
        ['bbox', { value: [1, 2, 'x', 4] }, 'value[2]'],
        ['bbox3d', { value: [1, 2, 3, 4] }, 'value'],
        ['int', { value: 1.5 }, 'value'],
        ['bool', { value: 'yes' }, 'value'],
        ['color', { hex: 'red' }, 'hex'],
        ['grid', { bbox: [1, 2, 3, 4], width: 0, height: 10 }, 'width'],
        ['pointcloud', { bbox3d: [1, 2, 3, 4, 5, 6], name: 'p', pointcount: -1 }, 'pointcount'],
        ['tag', { value: { id: 'x' } }, 'value.id'],
        ['wmts', { tms_url: 'https://x/{z}/{x}/{y}.png', bbox: [1, 2] }, 'bbox'],
        ['datetime', { value: 'not a date' }, 'value'],
      ];
      for (const [type, datum, field] of cases) {
        const depot = await newDepot(admin, type);
        const res = await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, datum);
        assertError(res, 400, 'invalid_value');
        assert.equal(res.body.field, field, `${type} ${JSON.stringify(datum)} → ${res.body.reason}`);
      }
    });

    it('validates a PATCH against the whole datum and keeps the old value on refusal', async () => {
      const depot = await newDepot(admin, 'bbox');
      const d = await addDatum(admin, depot, { value: [1, 2, 3, 4] });
      const res = await admin.patch(`/api/v1/datum/${d.index}/`, { value: [1, 2] });
      assertError(res, 400, 'invalid_value');
      assert.deepEqual(await valuesAt(admin, depot), [[1, 2, 3, 4]]);
      const de = await admin.patch(`/api/v1/datum/${d.index}/`, { value: [1, 2] }, { headers: { 'Accept-Language': 'de' } });
      assert.notEqual(de.body.reason, res.body.reason, 'the reason comes in German too');
    });
  });
});
