import assert from 'node:assert/strict';
import { ResourceListStore, IS_LOADING } from './resource-list-store';

interface Item {
  id: number;
  resource_uri: string;
}

/** A fake API whose answers the test releases one by one. */
function deferredApi() {
  const pending: Array<{ query: Record<string, unknown>; resolve(v: unknown): void; signal?: AbortSignal }> = [];
  const api = {
    get: (_path: string, opts: { query: Record<string, unknown>; signal?: AbortSignal }) =>
      new Promise((resolve) => pending.push({ query: opts.query, resolve, signal: opts.signal })),
  };
  const page = (ids: number[], total: number) => ({
    objects: ids.map((id) => ({ id, resource_uri: `/api/v1/x/${id}/` })),
    meta: { offset: 0, limit: 2, total_count: total },
  });
  /** A page as the resource layer answers it: with the next page's address, or null on the last. */
  const cursorPage = (ids: number[], total: number | null, after: string | null) => ({
    objects: ids.map((id) => ({ id, resource_uri: `/api/v1/x/${id}/` })),
    meta: { offset: null, limit: 2, total_count: total, next: after && `/api/v1/x/?limit=2&after=${after}` },
  });
  return { api: api as never, pending, page, cursorPage };
}

describe('ResourceListStore', () => {
  it('rejects a load while another load is running with isLoading (spec 000 §4)', async () => {
    const { api, pending, page } = deferredApi();
    const store = new ResourceListStore<Item>(api, '/api/v1/x/', 2);
    const first = store.load();
    await assert.rejects(store.load(), new Error(IS_LOADING));
    pending[0].resolve(page([1, 2], 3));
    await first;
    assert.deepEqual(
      store.items.map((i) => i.id),
      [1, 2],
    );
    assert.equal(store.hasMore, true);
  });

  it('asks every page after the first behind the cursor of meta.next, without a count', async () => {
    const { api, pending, cursorPage } = deferredApi();
    const store = new ResourceListStore<Item>(api, '/api/v1/x/', 2);
    store.setQuery({ order_by: '-name' });
    const first = store.load();
    assert.deepEqual(pending[0].query, { order_by: '-name', limit: 2, offset: 0 });
    pending[0].resolve(cursorPage([1, 2], 5, 'c2.x'));
    await first;
    assert.equal(store.hasMore, true);
    const more = store.loadMore();
    assert.deepEqual(pending[1].query, { order_by: '-name', limit: 2, after: 'c2.x', count: 'false' });
    pending[1].resolve(cursorPage([3, 4], null, 'c4.y'));
    await more;
    assert.equal(store.total, 5, 'the first page’s count stays');
    const last = store.loadMore();
    assert.equal(pending[2].query.after, 'c4.y');
    pending[2].resolve(cursorPage([5], null, null));
    await last;
    assert.deepEqual(
      store.items.map((i) => i.id),
      [1, 2, 3, 4, 5],
    );
    assert.equal(store.hasMore, false, 'no next address: everything is loaded');
    await store.loadMore();
    assert.equal(pending.length, 3, 'nothing more is asked');
  });

  it('appends the next page by offset for a list that gives no cursor', async () => {
    const { api, pending, page } = deferredApi();
    const store = new ResourceListStore<Item>(api, '/api/v1/x/', 2);
    const first = store.load();
    pending[0].resolve(page([1, 2], 3));
    await first;
    const more = store.loadMore();
    assert.equal(pending[1].query.offset, 2);
    pending[1].resolve(page([3], 3));
    await more;
    assert.deepEqual(
      store.items.map((i) => i.id),
      [1, 2, 3],
    );
    assert.equal(store.hasMore, false);
  });

  it('reload abandons a stale load so an old answer never replaces a newer query', async () => {
    const { api, pending, page } = deferredApi();
    const store = new ResourceListStore<Item>(api, '/api/v1/x/', 2);
    store.setQuery({ q: 'old' });
    const stale = store.load();
    store.setQuery({ q: 'new' });
    const fresh = store.reload();
    assert.equal(pending[0].signal?.aborted, true);
    assert.equal(pending[1].query.q, 'new');
    pending[1].resolve(page([9], 1));
    pending[0].resolve(page([1, 2], 2));
    await Promise.all([stale, fresh]);
    assert.deepEqual(
      store.items.map((i) => i.id),
      [9],
    );
    assert.equal(store.isLoading, false);
  });

  it('search sets the query text and loads the first page anew', async () => {
    const { api, pending, page } = deferredApi();
    const store = new ResourceListStore<Item>(api, '/api/v1/x/', 2);
    const searching = store.search('harbour');
    assert.equal(pending[0].query.q, 'harbour');
    assert.equal(pending[0].query.offset, 0);
    pending[0].resolve(page([4], 1));
    await searching;
    assert.deepEqual(
      store.items.map((i) => i.id),
      [4],
    );
  });
});
