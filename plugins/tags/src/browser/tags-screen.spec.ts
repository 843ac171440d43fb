import assert from 'node:assert/strict';
import { bootWorkbench, RecordingApiClient, testConfig, type BootedWorkbench, browserPlugin } from '@werkbank/testing/browser';
import tagsBrowser from './tags-browser-module';

const plugins = [
  await browserPlugin('types'),
  { manifest: { id: 'tags', requires: ['types'], components: ['tags'] }, module: tagsBrowser },
];

describe('tags screen (browser kernel in jsdom)', function () {
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('shows the add-on notice when tags are not licensed, and registers interest on request', async () => {
    const api = new RecordingApiClient({ 'POST /api/v1/addon/tags/inform/': { status: 'ok' } });
    const config = testConfig({ plugins: ['types', 'tags'], components: { tags: false } });
    booted = await bootWorkbench(plugins, { path: '/tags/', api, config });
    await booted.waitFor(() => booted!.root.textContent!.includes('The tags add-on has not yet been licensed.'));
    assert.equal(api.calls.filter((c) => c.path.startsWith('/api/v2/backend/tags/')).length, 0, 'no tag call while unlicensed');
    const button = [...booted.root.querySelectorAll('button')].find((b) => b.textContent === 'Request more information')!;
    button.click();
    await booted.waitFor(() => document.body.textContent!.includes('Our team will get in touch with you.'));
    assert.deepEqual(
      api.calls.map((c) => `${c.method} ${c.path}`),
      ['POST /api/v1/addon/tags/inform/'],
    );
  });

  it('lists the user tags, hiding system tags until the system-tags toggle is on', async () => {
    const tag = (id: number, name: string, intent: 'user' | 'system') => ({
      id,
      resource_uri: `/api/v2/backend/tags/${id}/`,
      name,
      color: '#2d72d2',
      icon: 'tag',
      intent,
      counts: { greeting: 3 },
    });
    const user = tag(1, 'Hochwasser', 'user');
    const system = tag(2, 'Importiert', 'system');
    // The fake server answers like the real one: filter=user leaves the system tags out.
    const api = new RecordingApiClient({
      'GET /api/v2/backend/tags/': (call) => {
        const objects = call.query?.filter === 'user' ? [user] : [system, user];
        return { objects, meta: { offset: 0, limit: 50, total_count: objects.length } };
      },
    });
    booted = await bootWorkbench(plugins, { path: '/tags/', api, config: testConfig({ plugins: ['types', 'tags'] }) });
    await booted.waitFor(() => booted!.root.textContent!.includes('Hochwasser'));
    assert.equal(api.calls[0].query?.filter, 'user', 'system tags stay hidden until the toggle is on');
    assert.ok(!booted.root.textContent!.includes('Importiert'));

    const toggle = booted.root.querySelector<HTMLButtonElement>('button[aria-label="Show system tags"]')!;
    assert.equal(toggle.getAttribute('aria-pressed'), 'false');
    toggle.click();
    await booted.waitFor(() => booted!.root.textContent!.includes('Importiert'));
    assert.equal(api.calls.at(-1)!.query?.filter, undefined, 'with the toggle on, every tag is asked for');
    assert.equal(toggle.getAttribute('aria-pressed'), 'true');

    toggle.click();
    await booted.waitFor(() => !booted!.root.textContent!.includes('Importiert'));
    assert.equal(api.calls.at(-1)!.query?.filter, 'user');
  });
});
