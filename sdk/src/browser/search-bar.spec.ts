import assert from 'node:assert/strict';
import { bootWorkbench, installDom, type BootedWorkbench } from '@werkbank/testing/browser';
import { createElement, useState } from 'react';
import { definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/kernel/browser';
import { SearchBar } from './search-bar';

const submitted: string[] = [];

function Probe() {
  const [value, setValue] = useState('');
  return createElement(SearchBar, { value, onChange: setValue, onSubmit: (q: string) => submitted.push(q) });
}

const probeRoutes: RC = { registerRoutes: (r) => r.add({ id: 'probe.search', path: '/probe/', component: Probe }) };

describe('SearchBar (spec 000 §2)', function () {
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('takes focus after mounting, submits on Enter, and on Escape clears, submits the empty query and blurs', async () => {
    const dom = installDom();
    submitted.length = 0;
    booted = await bootWorkbench(
      [{ manifest: { id: 'probe' }, module: definePlugin((ctx) => ctx.contribute(RouteContribution, probeRoutes)) }],
      { path: '/probe/' },
    );
    const input = () => booted!.root.querySelector<HTMLInputElement>('[data-testid="search-input"]');
    await booted.waitFor(() => !!input() && document.activeElement === input());

    const setValue = Object.getOwnPropertyDescriptor(dom.window.HTMLInputElement.prototype, 'value')!.set!;
    setValue.call(input(), 'harbour');
    input()!.dispatchEvent(new dom.window.Event('input', { bubbles: true }));
    await booted.waitFor(() => input()!.value === 'harbour');
    input()!.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    assert.deepEqual(submitted, ['harbour']);

    input()!.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await booted.waitFor(() => input()!.value === '');
    assert.deepEqual(submitted, ['harbour', '']);
    assert.notEqual(document.activeElement, input());
  });
});
