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
  return { api: api as never, pending, page };
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

  it('appends the next page for infinite scroll, asking from the current length', async () => {
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
