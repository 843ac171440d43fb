import assert from 'node:assert/strict';
import { bootWorkbench, RecordingApiClient, type BootedWorkbench } from '@werkbank/testing/browser';
import helloBrowser from './hello-browser-module';

const manifest = { id: 'hello', optional: ['tags'] };
const greeting = {
  id: 7,
  resource_uri: '/api/v1/greeting/7/',
  name: 'Moin',
  message: 'from Kiel',
  created: '2026-11-26T10:00:00Z',
  favored: false,
  tags: [],
};

describe('hello example: greetings screen (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('lists greetings from the API, with the main-menu entry the plugin contributes', async () => {
    const api = new RecordingApiClient({
      'GET /api/v1/greeting/': { objects: [greeting], meta: { offset: 0, limit: 20, total_count: 1 } },
      'GET /api/v2/backend/tags/': { objects: [], meta: { offset: 0, limit: 1000, total_count: 0 } },
    });
    booted = await bootWorkbench([{ manifest, module: helloBrowser }], { path: '/hello/', api });
    await booted.waitFor(() => booted!.root.textContent!.includes('from Kiel'));
    assert.ok(booted.root.querySelector('[data-testid="menu-hello.menu"]'), 'the Greetings menu entry is shown');
    const list = api.calls.find((c) => c.path === '/api/v1/greeting/');
    assert.deepEqual(list?.query, { offset: 0, limit: 20 });
  });

  it('asks the API for favourites only when the favourites toggle is on', async () => {
    const api = new RecordingApiClient({
      'GET /api/v1/greeting/': (call) =>
        call.query?.filter === 'favorites'
          ? { objects: [], meta: { offset: 0, limit: 20, total_count: 0 } }
          : { objects: [greeting], meta: { offset: 0, limit: 20, total_count: 1 } },
      'GET /api/v2/backend/tags/': { objects: [], meta: { offset: 0, limit: 1000, total_count: 0 } },
    });
    booted = await bootWorkbench([{ manifest, module: helloBrowser }], { path: '/hello/', api });
    await booted.waitFor(() => booted!.root.textContent!.includes('Moin'));
    (booted.root.querySelector('[data-testid="favorites-toggle"]') as HTMLButtonElement).click();
    await booted.waitFor(() => booted!.root.textContent!.includes('No greetings yet'));
    assert.ok(api.calls.some((c) => c.query?.filter === 'favorites'));
  });

  it('shows the not-found page naming the missing feature for a spec route without a plugin', async () => {
    booted = await bootWorkbench([{ manifest, module: helloBrowser }], { path: '/switchboards/' });
    await booted.waitFor(() => booted!.root.textContent!.includes('which is not installed on this server'));
    assert.match(booted.root.textContent!, /the section “Switchboards”/);
  });
});
