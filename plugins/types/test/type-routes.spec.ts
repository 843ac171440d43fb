import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_LIMIT, MAX_LIMIT } from '@werkbank/sdk/node';
import {
  apiKeyClient,
  assertError,
  expectStatus,
  startTestServer,
  userUri,
  type Client,
  type TestServer,
} from '@werkbank/testing/node';

const TYPES = '/api/v1/type/';

interface TypeReply {
  name: string;
  base: string | null;
  base_chain: string[];
  schema: Record<string, unknown> | null;
  template: Record<string, unknown>;
  resource_uri: string;
}

/**
 * The datum types a plugin author and the editors read (GET /api/v1/type/ and /api/v1/type/{name}/):
 * the list with its search and paging, one type with its base chain, schema and template, and who
 * may ask.
 */
describe('types: the datum type routes', function () {
  let t: TestServer;
  let user: Client;
  let all: TypeReply[];

  before(async () => {
    t = await startTestServer();
    user = (await t.user()).client;
    all = expectStatus(await user.get(`${TYPES}?limit=${MAX_LIMIT}`), 200).objects;
  });
  after(async () => {
    await t?.close();
  });

  it('lists every type once, sorted by name, with its total and the default page size', async () => {
    const names = all.map((o) => o.name);
    assert.ok(names.length > 20 && names.length < MAX_LIMIT, `${names.length} types`);
    assert.deepEqual(names, [...names].sort());
    assert.equal(new Set(names).size, names.length);
    for (const n of ['any', 'feature', 'float', 'int', 'number', 'string', 'label', 'bbox']) assert.ok(names.includes(n), n);
    const first = expectStatus(await user.get(TYPES), 200);
    assert.deepEqual(first.meta, { offset: 0, limit: DEFAULT_LIMIT, total_count: names.length });
    assert.deepEqual(
      first.objects.map((o: TypeReply) => o.name),
      names.slice(0, DEFAULT_LIMIT),
    );
  });

  it('pages by offset and limit: a limit above the largest is the largest, below one is one', async () => {
    const page = expectStatus(await user.get(`${TYPES}?offset=5&limit=3`), 200);
    assert.deepEqual(page.meta, { offset: 5, limit: 3, total_count: all.length });
    assert.deepEqual(page.objects, all.slice(5, 8));
    const beyond = expectStatus(await user.get(`${TYPES}?offset=${all.length}`), 200);
    assert.deepEqual(beyond.objects, []);
    assert.equal(beyond.meta.total_count, all.length);
    assert.equal(expectStatus(await user.get(`${TYPES}?limit=${MAX_LIMIT + 1}`), 200).meta.limit, MAX_LIMIT);
    const one = expectStatus(await user.get(`${TYPES}?limit=0`), 200);
    assert.equal(one.meta.limit, 1);
    assert.deepEqual(one.objects, all.slice(0, 1));
    const empty = expectStatus(await user.get(`${TYPES}?offset=&limit=`), 200);
    assert.deepEqual(empty.meta, { offset: 0, limit: DEFAULT_LIMIT, total_count: all.length });
  });

  it('refuses paging values that are no whole numbers and filters it does not know', async () => {
    for (const q of ['offset=-1', 'offset=abc', 'limit=1.5', 'limit=-3'])
      assertError(await user.get(`${TYPES}?${q}`), 400, 'invalid_parameter', new RegExp(`'${q.split('=')[0]}'`));
    assertError(await user.get(`${TYPES}?colour=red`), 400, 'unknown_filter', "'colour' is not a filter of this list.");
    assertError(await user.get(`${TYPES}?name=int`), 400, 'unknown_filter');
  });

  it('searches the names for a part, in any case', async () => {
    const found = expectStatus(await user.get(`${TYPES}?q=BBOX`), 200);
    assert.deepEqual(
      found.objects.map((o: TypeReply) => o.name),
      all.map((o) => o.name).filter((n) => n.includes('bbox')),
    );
    assert.deepEqual(
      found.objects.map((o: TypeReply) => o.name),
      ['bbox', 'bbox3d'],
    );
    assert.equal(found.meta.total_count, 2);
    const none = expectStatus(await user.get(`${TYPES}?q=keintyp`), 200);
    assert.deepEqual(none, { objects: [], meta: { offset: 0, limit: DEFAULT_LIMIT, total_count: 0 } });
  });

  it('answers one type with its base chain, its effective schema, template and address', async () => {
    const float = expectStatus<TypeReply>(await user.get(`${TYPES}float/`), 200);
    const number = expectStatus<TypeReply>(await user.get(`${TYPES}number/`), 200);
    assert.equal(float.name, 'float');
    assert.equal(float.base, 'number');
    assert.deepEqual(float.base_chain, ['float', 'number']);
    assert.equal(float.resource_uri, '/api/v1/type/float/');
    assert.deepEqual(float.schema, number.schema, 'float has the schema of number');
    assert.deepEqual(float.template, { value: 0 });
    assert.equal(number.base, null);
    assert.deepEqual(number.base_chain, ['number']);
    assert.equal((number.schema as { properties: { value: { type: string } } }).properties.value.type, 'number');
    const anyType = expectStatus<TypeReply>(await user.get(`${TYPES}any/`), 200);
    assert.deepEqual(anyType, {
      name: 'any',
      base: null,
      base_chain: ['any'],
      schema: null,
      template: {},
      resource_uri: '/api/v1/type/any/',
    });
    assert.deepEqual(
      all.find((o) => o.name === 'float'),
      float,
      'the list shows a type as its own address does',
    );
    assertError(await user.get(`${TYPES}keintyp/`), 404, 'not_found');
  });

  it('answers only signed-in callers, and API keys only with the type realm', async () => {
    assertError(await t.client().get(TYPES), 401, 'not_authenticated');
    assertError(await t.client().get(`${TYPES}int/`), 401, 'not_authenticated');
    const admin = await t.admin();
    const owner = await t.user();
    // Calling with a key needs access_connect (decision 0041).
    expectStatus(await admin.patch(userUri(owner.id), { user_permissions: ['access_connect'] }), 200);
    const keyFor = async (realms: string[]) =>
      apiKeyClient(t, expectStatus(await admin.post('/api/v1/apikey/', { user: userUri(owner.id), realms }), 201).key);
    const other = await keyFor(['depot']);
    assertError(await other.get(TYPES), 403, 'realm_denied');
    assertError(await other.get(`${TYPES}int/`), 403, 'realm_denied');
    const typed = await keyFor(['type']);
    assert.equal(expectStatus(await typed.get(TYPES), 200).meta.total_count, all.length);
    assert.deepEqual(expectStatus(await typed.get(`${TYPES}int/`), 200).base_chain, ['int', 'number']);
  });

  it('describes both routes in /api/openapi.json as the committed API document does', async () => {
    const served = expectStatus(await user.get('/api/openapi.json'), 200).paths;
    const snapshot = JSON.parse(readFileSync(new URL('../../../testing/openapi.snapshot.json', import.meta.url), 'utf8')).paths;
    for (const path of ['/api/v1/type/', '/api/v1/type/{name}/']) {
      assert.ok(snapshot[path], path);
      assert.deepEqual(served[path], snapshot[path], path);
    }
    assert.equal(served['/api/v1/type/{name}/'].parameters[0].required, true);
  });
});
