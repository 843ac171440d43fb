import assert from 'node:assert/strict';
import { bootWorkbench, installDom, type BootedWorkbench } from '@werkbank/testing/browser';
import { createElement, useState } from 'react';
import { definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/kernel/browser';
import { useInfiniteScroll } from './infinite-scroll';

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
