import assert from 'node:assert/strict';
import { bootWorkbench, installDom, RecordingApiClient, type BootedWorkbench } from '@werkbank/testing/browser';
import { createElement, useMemo, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { ApiClient, definePlugin, RouteContribution, useService, type RouteContribution as RC } from '@werkbank/kernel/browser';
import { useInfiniteScroll } from './infinite-scroll';
import { ResourceListStore } from './resource-list-store';

let loads = 0;

/** A scrolling box of 1000 px content in a 100 px window, loading more into it. */
function Probe() {
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  useInfiniteScroll(() => loads++, true, 0, box);
  return createElement('div', { ref: setBox, 'data-testid': 'box' });
}

const routes: RC = { registerRoutes: (r) => r.add({ id: 'probe.scroll', path: '/probe/', component: Probe }) };

describe('useInfiniteScroll in a scrolling container', function () {
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('follows the container: nothing while far from its bottom, a load when it is scrolled near the bottom', async () => {
    installDom();
    loads = 0;
    // Sizes jsdom does not compute: 1000 px of content in a 100 px box, scrolled to the top.
    const sizes = { scrollHeight: 1000, clientHeight: 100, scrollTop: 0 };
    for (const [key, value] of Object.entries(sizes)) {
      Object.defineProperty(window.HTMLElement.prototype, key, { configurable: true, get: () => value, set: () => {} });
    }
    try {
      booted = await bootWorkbench(
        [{ manifest: { id: 'probe' }, module: definePlugin((ctx) => ctx.contribute(RouteContribution, routes)) }],
        { path: '/probe/' },
      );
      await booted.waitFor(() => !!booted!.root.querySelector('[data-testid="box"]'));
      window.dispatchEvent(new window.Event('scroll'));
      assert.equal(loads, 0, 'the window scrolling does not count, the box is far from its bottom');
      const box = booted.root.querySelector<HTMLElement>('[data-testid="box"]')!;
      Object.defineProperty(box, 'scrollTop', { configurable: true, get: () => 800 });
      box.dispatchEvent(new window.Event('scroll'));
      assert.equal(loads, 1);
    } finally {
      for (const key of Object.keys(sizes)) delete (window.HTMLElement.prototype as unknown as Record<string, unknown>)[key];
    }
  });
});

/** A list screen as the plugins build it: the shared store, loaded by the infinite scroll. */
const ListProbe = observer(function ListProbe() {
  const api = useService(ApiClient);
  const store = useMemo(() => new ResourceListStore(api, '/api/v1/thing/', 2), [api]);
  useInfiniteScroll(
    () => void (store.items.length ? store.loadMore() : store.load()),
    store.hasMore || !store.items.length,
    store.items.length,
  );
  return createElement(
    'ul',
    { 'data-testid': 'list' },
    store.items.map((i) => createElement('li', { key: i.id }, `thing ${i.id}`)),
  );
});

describe('infinite scroll over the shared list store', function () {
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('asks the first page with its count, every later one behind the cursor of meta.next without a count', async () => {
    installDom();
    const thing = (id: number) => ({ id, resource_uri: `/api/v1/thing/${id}/` });
    const api = new RecordingApiClient({
      'GET /api/v1/thing/': (call) => {
        const after = call.query?.after as string | undefined;
        if (!after)
          return {
            objects: [thing(1), thing(2)],
            meta: { offset: 0, limit: 2, total_count: 3, next: '/api/v1/thing/?limit=2&after=c2.s' },
          };
        assert.equal(after, 'c2.s');
        return { objects: [thing(3)], meta: { offset: null, limit: 2, total_count: null, next: null } };
      },
    });
    const listRoutes: RC = { registerRoutes: (r) => r.add({ id: 'probe.list', path: '/things/', component: ListProbe }) };
    booted = await bootWorkbench(
      [{ manifest: { id: 'probe' }, module: definePlugin((ctx) => ctx.contribute(RouteContribution, listRoutes)) }],
      { path: '/things/', api },
    );
    // jsdom lays nothing out: the page never fills the window, so the scroll keeps loading while more exists.
    await booted.waitFor(() => booted!.root.textContent!.includes('thing 3'));
    const asked = api.calls.filter((c) => c.path === '/api/v1/thing/').map((c) => c.query);
    assert.deepEqual(asked, [
      { limit: 2, offset: 0 },
      { limit: 2, after: 'c2.s', count: 'false' },
    ]);
  });
});
