import assert from 'node:assert/strict';
import { Component, type ReactNode } from 'react';
import { installDom } from '@werkbank/testing/browser';
import { lazyScreen } from './lazy-screen';

/** Lets React and the loading promises run (a macrotask). */
const settle = () => new Promise((r) => setTimeout(r, 0));

/** Waits until `predicate` holds (checked after each macrotask, up to 2 s). */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** Catches what a screen throws while rendering. */
class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p data-testid="caught">{this.state.error.message}</p> : this.props.children;
  }
}

describe('kernel: a screen loaded on demand (lazyScreen)', () => {
  let host: HTMLElement;
  // react-dom looks for a DOM once, when it is first loaded: only after jsdom is installed.
  let createRoot: typeof import('react-dom/client').createRoot;
  before(async () => {
    installDom();
    ({ createRoot } = await import('react-dom/client'));
  });
  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => host.remove());

  it('shows a spinner until its module has loaded, then the screen; the module loads once', async () => {
    let calls = 0;
    let resolve!: (m: { default: () => ReactNode }) => void;
    const Screen = lazyScreen(() => {
      calls++;
      return new Promise((r) => (resolve = r));
    });
    const root = createRoot(host);
    root.render(<Screen />);
    await until(() => !!host.querySelector('.wb-spinner'));
    assert.ok(host.querySelector('.wb-spinner'), 'the spinner while loading');
    resolve({ default: () => <p data-testid="screen">Moin</p> });
    await until(() => !!host.querySelector('[data-testid=screen]'));
    assert.equal(host.querySelector('[data-testid=screen]')?.textContent, 'Moin');
    assert.equal(host.querySelector('.wb-spinner'), null);
    // Opened again (another visit of the route): drawn at once, not loaded again.
    root.render(<p />);
    await settle();
    root.render(<Screen />);
    await until(() => !!host.querySelector('[data-testid=screen]'));
    assert.equal(host.querySelector('[data-testid=screen]')?.textContent, 'Moin');
    assert.equal(calls, 1);
    root.unmount();
  });

  it('draws the screen of a module that loaded before the spinner was first drawn', async () => {
    const Screen = lazyScreen(() => Promise.resolve({ default: () => <p data-testid="screen">Moin</p> }));
    const root = createRoot(host);
    root.render(<Screen />);
    await until(() => !!host.querySelector('[data-testid=screen]'));
    assert.equal(host.querySelector('[data-testid=screen]')?.textContent, 'Moin');
    root.unmount();
  });

  it('throws a failed load to the error boundary above, as React.lazy does', async () => {
    const Screen = lazyScreen(() => Promise.reject(new Error('chunk gone')));
    const root = createRoot(host);
    const quiet = console.error;
    console.error = () => undefined;
    try {
      root.render(
        <Boundary>
          <Screen />
        </Boundary>,
      );
      await until(() => !!host.querySelector('[data-testid=caught]'));
    } finally {
      console.error = quiet;
    }
    assert.equal(host.querySelector('[data-testid=caught]')?.textContent, 'chunk gone');
    root.unmount();
  });
});
