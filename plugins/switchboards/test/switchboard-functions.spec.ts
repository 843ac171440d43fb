import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client } from '@werkbank/testing/node';
import { assertField, FUNCTIONS, get, list, switchboardServer, type Obj, type User } from './switchboard-support';

/** The function list and its search through the API (spec 000 §5, §9). */
describe('Switchboard model: functions', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let alice: User;
  let bob: User;
  before(() => ({ alice, bob } = server.get()));

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
});
