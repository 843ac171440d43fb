import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { isStateChangingGet, STATE_CHANGING_GETS } from '../../server/src/auth/auth-middleware';
import { assertError, expectStatus, GREETINGS, type Client } from './api-test-support';
import { addDatum, newDepot } from '@werkbank/plugin-magazine/testing';
import { FUNCTIONS, SWITCHBOARDS } from '@werkbank/plugin-switchboards/testing';

const UNSAFE = ['post', 'put', 'patch', 'delete'];

type Operation = { 'x-changes-state'?: boolean };
type OpenApi = { paths: Record<string, Record<string, Operation>> };

/** Sends one request with the path exactly as given (fetch would normalise it) and the client's cookies. */
function rawRequest(c: Client, method: string, path: string, csrf?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  if (csrf) headers['x-csrftoken'] = csrf;
  const body = method !== 'GET' && method !== 'HEAD' ? '{}' : undefined;
  // Node sends a DELETE body without framing unless the length is given.
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) });
  return new Promise((resolve, reject) => {
    const req = request(`${c.baseUrl}/`, { method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON (HEAD has no body)
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Spellings of one address that a router or a browser may treat as the same (issue 14 item 24):
 * doubled and missing slashes, dot segments, letter case and percent-encoding of the last segment.
 */
function variants(path: string): string[] {
  const trimmed = path.replace(/\/$/, '');
  const cut = trimmed.lastIndexOf('/');
  const head = trimmed.slice(0, cut);
  const last = trimmed.slice(cut + 1);
  const hex = (ch: string) => `%${ch.charCodeAt(0).toString(16)}`;
  return [
    path,
    `${trimmed}//`,
    `${trimmed}///`,
    trimmed,
    path.replace(/^\//, '//'),
    path.replace(/^(\/[^/]+)\//, '$1//'),
    `${head}/./${last}/`,
    `${head}/x/../${last}/`,
    `${head}/%2e/${last}/`,
    `${head}/${last.toUpperCase()}/`,
    `${head}/${last.charAt(0).toUpperCase()}${last.slice(1)}/`,
    `${head}/${hex(last.charAt(0))}${last.slice(1)}/`,
    `${head}/${hex(last.charAt(0)).toUpperCase()}${last.slice(1)}//`,
  ];
}

/** An OpenAPI path with its parameters filled in: ids with 1, names with `x`. */
const concrete = (template: string) => template.replace(/\{(\w+)\}/g, (_m, name: string) => (/id$/i.test(name) ? '1' : 'x'));

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

describe('hardening: CSRF on every unsafe action, however the address is spelt', function () {
  let t: TestServer;
  let admin: Client;
  let api: OpenApi;

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    api = expectStatus<OpenApi>(await admin.get('/api/openapi.json'), 200);
  });
  after(async () => t?.close());

  it('refuses every unsafe method and every state-changing GET of the OpenAPI document without the header, in every spelling', async () => {
    const calls: Array<{ method: string; path: string }> = [];
    for (const [template, item] of Object.entries(api.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const unsafe = UNSAFE.includes(method) || (method === 'get' && op['x-changes-state'] === true);
        if (!unsafe) continue;
        const methods = method === 'get' ? ['GET', 'HEAD'] : [method.toUpperCase()];
        for (const m of methods) for (const path of variants(concrete(template))) calls.push({ method: m, path });
      }
    }
    assert.ok(calls.length > 500, `only ${calls.length} calls: the OpenAPI document lost its unsafe actions`);
    const accepted: string[] = [];
    await inBatches(calls, 8, async ({ method, path }) => {
      const res = await rawRequest(admin, method, path);
      const refused = res.status === 403 && (method === 'HEAD' || res.body?.code === 'csrf_missing');
      if (!refused) accepted.push(`${method} ${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 80)}`);
    });
    assert.deepEqual(accepted, [], `${accepted.length} calls were not refused`);
  });

  it('marks in the OpenAPI document exactly the GETs the CSRF check treats as state-changing', () => {
    const marked = Object.entries(api.paths)
      .filter(([, item]) => item.get?.['x-changes-state'] === true)
      .map(([p]) => p)
      .sort();
    const checked = Object.entries(api.paths)
      .filter(([p, item]) => item.get && isStateChangingGet(concrete(p)))
      .map(([p]) => p)
      .sort();
    assert.deepEqual(checked, marked);
    for (const p of marked) assert.ok(api.paths[p].post, `${p} has no POST form`);
  });

  it('refuses a forged csrftoken cookie with a matching header: the token must be the session’s (issue 20 item 2)', async () => {
    const u = await t.user();
    const before = expectStatus(await u.client.get(GREETINGS), 200).meta.total_count;
    const session = u.client.csrfToken;
    u.client.cookies.set('csrftoken', 'forged-token-of-the-attacker');
    const res = await u.client.post(GREETINGS, { name: 'forged' }, { csrf: 'forged-token-of-the-attacker' });
    assertError(res, 403, 'csrf_mismatch');
    assert.equal(u.client.csrfToken, session, 'the reply puts the session’s token back into the cookie');
    assertError(await u.client.get(`${GREETINGS}1/favor/`, { csrf: 'forged-token-of-the-attacker' }), 403, 'csrf_mismatch');
    assert.equal(expectStatus(await u.client.get(GREETINGS), 200).meta.total_count, before);
  });

  describe('each state-changing GET of the CSRF check’s list is refused without the header, and has a POST form (issue 20 item 3)', () => {
    /**
     * For every entry of STATE_CHANGING_GETS: an address of it on a real object, how to read the
     * state it changes, and the POST form's body. A new entry without a witness here fails.
     */
    type Witness = { path: () => Promise<string>; state: () => Promise<unknown>; body?: Record<string, unknown> };
    const witnesses: Record<string, Witness> = {};
    let greeting = '';
    let moment = 0;
    const interest = async () =>
      (await t.server.db.dataSource.query(`SELECT count(*)::int AS n FROM werkbank_addon_interest`))[0].n as number;
    const switchboards = async () => expectStatus(await admin.get(SWITCHBOARDS), 200).meta.total_count as number;

    before(async () => {
      greeting = expectStatus(await admin.post(GREETINGS, { name: 'witness' }), 201).resource_uri;
      const depot = await newDepot(admin, 'string');
      moment = (await addDatum(admin, depot, { value: 'a' })).moment_id;
      const datum = await addDatum(admin, depot, { value: 'b' });
      const view = expectStatus(await admin.post('/api/v1/view/', { name: 'witness' }), 201);
      const finalviews = async () => expectStatus(await admin.get('/api/v1/finalview/'), 200).meta.total_count as number;
      Object.assign(witnesses, {
        favor: { path: async () => `${greeting}favor/`, state: async () => (await admin.get(greeting)).body.favored },
        unfavor: {
          path: async () => {
            expectStatus(await admin.post(`${greeting}favor/`), 200);
            return `${greeting}unfavor/`;
          },
          state: async () => (await admin.get(greeting)).body.favored,
        },
        inform: { path: async () => '/api/v1/addon/tags/inform/', state: interest },
        finalize: {
          path: async () => `/api/v1/moment/${moment}/finalize/`,
          state: async () => expectStatus(await admin.get(`/api/v1/moment/${moment}/`), 200).status,
        },
        '/api/v2/switchboard/create/': { path: async () => '/api/v2/switchboard/create/?name=forged', state: switchboards },
        '/api/v2/switchboard/create/datum/': {
          path: async () => `/api/v2/switchboard/create/datum/?datum=${encodeURIComponent(datum.resource_uri)}`,
          state: switchboards,
        },
        '/switchboard/create-finalview/': {
          path: async () => `/switchboard/create-finalview/?slug=witness&view=${view.id}`,
          state: finalviews,
        },
      } satisfies Record<string, Witness>);
    });

    for (const entry of [...STATE_CHANGING_GETS.lastSegments, ...STATE_CHANGING_GETS.paths]) {
      it(`GET ${entry.startsWith('/') ? entry : `…/${entry}/`}`, async () => {
        const w = witnesses[entry];
        assert.ok(w, `no witness for ${entry}: add one to this test`);
        const covered = Object.keys(api.paths).filter((p) => api.paths[p].get && isStateChangingGet(concrete(p)));
        assert.ok(
          covered.some((p) => (entry.startsWith('/') ? p === entry : p.endsWith(`/${entry}/`))),
          `the OpenAPI document has no GET for ${entry}`,
        );
        const path = await w.path();
        const before = await w.state();
        for (const spelling of variants(path.replace(/\?.*$/, '')).map((v) => v + (path.match(/\?.*$/)?.[0] ?? ''))) {
          const res = await rawRequest(admin, 'GET', spelling);
          assert.equal(res.status, 403, `GET ${spelling} → ${res.status}`);
          assert.equal(res.body.code, 'csrf_missing');
        }
        assert.deepEqual(await w.state(), before, 'nothing changed');
        const viaPost = await rawRequest(admin, 'POST', path, admin.csrfToken);
        assert.equal(viaPost.status, 200, `POST ${path} → ${viaPost.status} ${JSON.stringify(viaPost.body)}`);
        assert.notDeepEqual(await w.state(), before, 'the POST form does what the GET does');
      });
    }
  });

  it('also refuses the functions’ favour links without the header and keeps the favourites', async () => {
    const favored = async () => expectStatus(await admin.get(`${FUNCTIONS}string.upper/`), 200).favored;
    for (const spelling of variants(`${FUNCTIONS}string.upper/favor/`)) {
      assertError(await rawRequest(admin, 'GET', spelling).then((r) => ({ ...r, headers: new Headers() })), 403, 'csrf_missing');
    }
    assert.equal(await favored(), false);
  });
});
