import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { addDatum, newDepot, type Depot, type Moment } from './magazine-support';

interface MomentPage {
  objects: Moment[];
  meta: { offset: number | null; limit: number; total_count: number | null; next: string | null };
}

/** The moment list pages by cursor (issue 15 item 4): `meta.next`, `after=`, as by offset. */
describe('magazine: moment list by cursor', () => {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer();
    admin = await t.admin();
  });
  after(async () => t?.close());

  /** A depot of `n` moments: `n - 1` finalized, each with one datum more, and the open head. */
  async function depotWithMoments(n: number): Promise<Depot> {
    const depot = await newDepot(admin, 'string');
    for (let i = 0; i < n - 1; i++) {
      const d = await addDatum(admin, depot, { value: `v${i}` });
      expectStatus(await admin.get(`/api/v1/moment/${d.moment_id}/finalize/`), 200);
    }
    return depot;
  }

  it('pages a depot’s moments by cursor exactly as by offset, and refuses a bad cursor', async () => {
    const depot = await depotWithMoments(7);
    const list = `/api/v1/moment/?depot_id=${depot.id}`;
    const all = expectStatus<MomentPage>(await admin.get(`${list}&limit=100`), 200);
    assert.ok(all.objects.length >= 7);
    assert.equal(all.meta.next, null);
    const ids: number[] = [];
    let page = expectStatus<MomentPage>(await admin.get(`${list}&limit=2`), 200);
    ids.push(...page.objects.map((m) => m.id));
    while (page.meta.next) {
      page = expectStatus<MomentPage>(await admin.get(`${page.meta.next}&count=false`), 200);
      assert.equal(page.meta.total_count, null);
      assert.equal(page.meta.offset, null);
      ids.push(...page.objects.map((m) => m.id));
    }
    assert.deepEqual(
      ids,
      all.objects.map((m) => m.id),
    );
    for (const bad of ['x1', '12x', '1234567890']) {
      const res = await admin.get(`${list}&after=${bad}`);
      assertError(res, 400, 'invalid_cursor');
      assert.equal(res.body.field, 'after', bad);
    }
    const both = await admin.get(`${list}&after=5&offset=2`);
    assertError(both, 400, 'invalid_parameter');
    assert.equal(both.body.field, 'offset');
  });

  it('gives pages of exactly `limit` moments, counted unless count=false, and no next page after the last', async () => {
    const depot = await depotWithMoments(4);
    const list = `/api/v1/moment/?depot_id=${depot.id}`;
    const first = expectStatus<MomentPage>(await admin.get(`${list}&limit=2`), 200);
    assert.equal(first.objects.length, 2);
    assert.equal(first.meta.total_count, 4);
    assert.equal(first.meta.offset, 0);
    assert.ok(first.meta.next);
    const rest = expectStatus<MomentPage>(await admin.get(`${list}&limit=2&offset=2`), 200);
    assert.equal(rest.meta.offset, 2);
    assert.equal(rest.meta.next, null, 'the page holds the last moments');
    assert.equal(rest.objects.length, 2);
    const whole = expectStatus<MomentPage>(await admin.get(`${list}&limit=4`), 200);
    assert.equal(whole.meta.next, null);
    // A cursor of many digits behind every moment: the list from the newest on.
    const behind = expectStatus<MomentPage>(await admin.get(`${list}&limit=4&after=999999999`), 200);
    assert.deepEqual(
      behind.objects.map((m) => m.id),
      whole.objects.map((m) => m.id),
    );
  });
});
