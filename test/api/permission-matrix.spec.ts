import assert from 'node:assert/strict';
import type { ResourceDefinition } from '@werkbank/sdk/node';
import { waitForExecution, type Obj } from '@werkbank/plugin-switchboards/testing';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus, userUri, type Client, type Reply } from './api-test-support';

type Access = 'read' | 'write' | 'execute';
type Action = 'detail' | 'list' | 'change' | 'delete' | 'run';

/** The grants of the matrix (issue 20 item 4); each implies read, write and execute only themselves. */
const GRANTS: Access[][] = [['read'], ['write'], ['execute'], ['read', 'write']];
const ACTIONS: Action[] = ['detail', 'list', 'change', 'delete', 'run'];

/**
 * Fields a kind needs beyond its required strings, made by its owner. A kind with object
 * permissions that needs more than names and is missing here fails the completeness test.
 */
const CREATE_EXTRAS: Record<string, (make: (kind: string) => Promise<Obj>) => Promise<Record<string, unknown>>> = {
  depot: async () => ({ content_type: 'string' }),
  workflow: async (make) => ({ steps: [{ switchboard: (await make('switchboard')).resource_uri, executor: 'default' }] }),
};

/** What a holder of `perms` may do (DESIGN §3: write and execute imply read; owner and superusers aside). */
function expected(def: ResourceDefinition, perms: Access[], action: Action): 'allowed' | 'denied' | 'hidden' {
  const granted = perms.filter((p) => p !== 'execute' || def.objectPermissions!.execute);
  // A grant the kind does not know is refused, so the holder has nothing.
  if (granted.length < perms.length || !granted.length) return 'hidden';
  if (action === 'detail' || action === 'list') return 'allowed';
  if (action === 'run') return granted.includes('execute') ? 'allowed' : 'denied';
  return granted.includes('write') ? 'allowed' : 'denied';
}

/** The access a holder of `perms` is told it has, in the server's order. */
function expectedAccess(def: ResourceDefinition, perms: Access[]): Access[] {
  return (['read', 'write', 'execute'] as Access[]).filter(
    (a) => (a === 'read' || perms.includes(a)) && (a !== 'execute' || def.objectPermissions!.execute),
  );
}

/**
 * Object permissions as a matrix (DESIGN §3, spec 002 §6): every grant above, given to a user and to
 * a group, against every action on every kind with object permissions — the kinds and their run
 * addresses taken from the server's resource definitions and OpenAPI document.
 */
describe('object permissions: the generated matrix of grants, actions and kinds', function () {
  let t: TestServer;
  let owner: Client;
  let grantee: { id: number; client: Client };
  let member: { id: number; client: Client };
  let groupUri: string;
  let kinds: ResourceDefinition[];
  let runPaths: Map<string, string>;
  let seq = 0;

  before(async () => {
    t = await startTestServer({ examples: true });
    const admin = await t.admin();
    owner = (await t.user()).client;
    grantee = await t.user();
    member = await t.user();
    groupUri = expectStatus<Obj>(await admin.post('/api/v1/group/', { name: 'Matrix' }), 201).resource_uri;
    expectStatus(await admin.patch(`/api/v1/user/${member.id}/`, { groups: [groupUri] }), 200);
    kinds = (t.server as unknown as { resources: { all(): ResourceDefinition[] } }).resources
      .all()
      .filter((d) => d.objectPermissions);
    const paths = Object.keys(expectStatus<{ paths: Record<string, unknown> }>(await admin.get('/api/openapi.json'), 200).paths);
    runPaths = new Map();
    for (const d of kinds) {
      const run = [`/api/v1/${d.kind}/{id}/run/`, `/api/v1/${d.kind}/{id}/execute/`].find((p) => paths.includes(p));
      if (run) runPaths.set(d.kind, run);
    }
  });
  after(async () => {
    await t?.close();
  });

  /** A new object of `kind` owned by the owner: its required strings named, its extras made. */
  async function make(kind: string): Promise<Obj> {
    // A frozen view is made from a view, by its own call (spec 000 §7), not by POST on its list.
    if (kind === 'finalview') {
      const view = (await make('view')).resource_uri;
      return expectStatus<Obj>(await owner.post('/switchboard/create-finalview/', { slug: `matrix_${++seq}`, view }), 200);
    }
    const def = kinds.find((d) => d.kind === kind)!;
    const fields: Record<string, unknown> = await (CREATE_EXTRAS[kind]?.(make) ?? Promise.resolve({}));
    for (const [name, spec] of Object.entries(def.fields)) {
      if (spec.required && spec.type === 'string' && fields[name] === undefined) fields[name] = `matrix ${kind} ${++seq}`;
    }
    return expectStatus<Obj>(await owner.post(`/api/v1/${kind}/`, fields), 201);
  }

  /** Does `action` as `c` on `obj`; returns the outcome as the matrix names it. */
  async function attempt(c: Client, def: ResourceDefinition, obj: Obj, action: Action, access: Access[]): Promise<string> {
    const outcome = (r: Reply, ok: number) =>
      r.status === ok ? 'allowed' : r.status === 403 ? 'denied' : r.status === 404 ? 'hidden' : `HTTP ${r.status}`;
    switch (action) {
      case 'detail': {
        const r = await c.get(obj.resource_uri);
        if (r.status === 200) assert.deepEqual(r.body.access, access, `${def.kind} detail access`);
        return outcome(r, 200);
      }
      case 'list': {
        const r = expectStatus<{ objects: Obj[] }>(await c.get(`/api/v1/${def.kind}/?limit=1000`), 200);
        const found = r.objects.find((o) => o.id === obj.id);
        if (found) assert.deepEqual(found.access, access, `${def.kind} list access`);
        return found ? 'allowed' : 'hidden';
      }
      case 'change':
        // A frozen view's slug is the one field its writers change.
        return outcome(
          await c.patch(obj.resource_uri, def.kind === 'finalview' ? { slug: `changed_${++seq}` } : { name: `changed ${++seq}` }),
          200,
        );
      case 'delete':
        return outcome(await c.delete(obj.resource_uri), 204);
      case 'run': {
        const r = await c.post(runPaths.get(def.kind)!.replace('{id}', String(obj.id)), {});
        // The run ends before the next object is made, so the server closes idle.
        if (r.status === 202) await waitForExecution(t, owner, r.body as Obj);
        return outcome(r, 202);
      }
    }
  }

  it('finds the kinds with object permissions, both with and without execute, and a run address for each that can execute', async () => {
    const listed = expectStatus<{ objects: Array<{ name: string }> }>(await owner.get('/api/v2/backend/permissions'), 200);
    const names = new Set(listed.objects.map((o) => o.name));
    for (const d of kinds)
      for (const name of Object.values(d.objectPermissions!)) assert.ok(names.has(name!), `${name} is listed`);
    assert.ok(
      kinds.some((d) => d.objectPermissions!.execute),
      'a kind with execute',
    );
    assert.ok(
      kinds.some((d) => !d.objectPermissions!.execute),
      'a kind without execute',
    );
    assert.deepEqual(
      kinds.filter((d) => d.objectPermissions!.execute && !runPaths.has(d.kind)).map((d) => d.kind),
      [],
    );
  });

  for (const holder of ['user', 'group'] as const) {
    for (const perms of GRANTS) {
      it(`gives a ${holder} granted {${perms.join(', ')}} exactly what the grant implies on every kind`, async () => {
        const who = holder === 'user' ? grantee : member;
        const entry = holder === 'user' ? { user: userUri(grantee.id), perms } : { group: groupUri, perms };
        const mismatches: string[] = [];
        for (const def of kinds) {
          for (const action of ACTIONS) {
            if (action === 'run' && !def.objectPermissions!.execute) continue;
            const obj = await make(def.kind);
            const granted = await owner.patch(obj.resource_uri, { permissions: [entry] });
            const want = expected(def, perms, action);
            if (want === 'hidden') assert.equal(granted.status, 400, `${def.kind}: a grant of ${perms} is refused`);
            else expectStatus(granted, 200);
            const got = await attempt(who.client, def, obj, action, expectedAccess(def, perms));
            if (got !== want) mismatches.push(`${def.kind} ${action}: expected ${want}, got ${got}`);
          }
        }
        assert.deepEqual(mismatches, []);
      });
    }
  }
});
