import assert from 'node:assert/strict';
import {
  bootWorkbench,
  browserPlugin,
  byTestId,
  RecordingApiClient,
  text,
  typeInto,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import { useState } from '@werkbank/sdk/react';
import {
  DatumEditorHost,
  definePlugin,
  Disposable,
  KernelToken,
  Registries,
  RouteContribution,
  useService,
  type Kernel,
  type NodeRendererProps,
} from '@werkbank/sdk/browser';
import { DatumCardMenuContribution, type DatumCardMenuEntry, type DatumMenuTarget } from '@werkbank/plugin-magazine/api';
import helloBrowser from './hello-browser-module';

const card = { to: 'Anna', text: 'Moin', stamps: 1 };
const target = (contentType: string): DatumMenuTarget => ({
  datum: { id: 5, index: 5, resource_uri: '/api/v1/datum/5/', content_type: contentType, ...card },
  depot: { id: 1, resource_uri: '/api/v1/depot/1/', name: 'Karten', content_type: contentType },
  readOnly: false,
});
const node = (progress: number | null, status: string): NodeRendererProps['node'] => ({
  id: 3,
  resource_uri: '/api/v1/node/3/',
  func: 'hello.greet',
  status,
  outdated: false,
  runinfo: { progress, count: 1, exception: null },
});

/** Shows what other plugins would: the datum editor of a card, the node body of hello.greet, the card menu entries. */
function Probe() {
  const [value, setValue] = useState<unknown>(card);
  const registries = useService(Registries);
  const kernel = useService<Kernel>(KernelToken);
  const entries: DatumCardMenuEntry[] = [];
  for (const c of kernel.contributions<DatumCardMenuContribution>(DatumCardMenuContribution).getContributions())
    c.registerDatumCardMenu({ add: (e) => (entries.push(e), Disposable.NULL) });
  const renderer = registries.nodeRenderers
    .all()
    .filter((r) => r.functions.includes('hello.greet'))
    .sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0))[0];
  const Body = renderer.component;
  const outputs = [
    { port: 'greetings', frame: '/api/v1/frame/4/', name: 'greetings', type: 'string', size: 2, text_repr: 'Hello, Anna!' },
  ];
  return (
    <div>
      <DatumEditorHost contentType="/api/v1/type/hello.greeting_card/" value={value} onChange={setValue} />
      <pre data-testid="value">{JSON.stringify(value)}</pre>
      <Body node={node(0.5, 'running')} outputs={[]} />
      <Body node={node(null, 'success')} outputs={outputs} />
      {entries
        .filter((e) => !e.when || e.when(target('/api/v1/type/hello.greeting_card/'), {} as never))
        .map((e) => (
          <button key={e.id} data-testid={`menu-${e.id}`} onClick={() => e.run(target('/api/v1/type/hello.greeting_card/'))}>
            {e.label}
          </button>
        ))}
      <span data-testid="menu-on-string">
        {entries.filter((e) => !e.when || e.when(target('/api/v1/type/string/'), {} as never)).length}
      </span>
    </div>
  );
}

const probe = definePlugin((ctx) => {
  const routes: RouteContribution = { registerRoutes: (r) => r.add({ id: 'probe.page', path: '/probe/', component: Probe }) };
  ctx.contribute(RouteContribution, routes);
});

// #region browser-test
describe('hello example: datum editor, node renderer and datum card menu (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('edits a greeting card in its own editor, draws hello.greet nodes, and saves a card as a greeting from the card menu', async () => {
    const api = new RecordingApiClient({
      'POST /api/v1/greeting/': { id: 1, resource_uri: '/api/v1/greeting/1/', name: 'Anna' },
    });
    const entries = [
      await browserPlugin('types'),
      { manifest: { id: 'hello', requires: ['types'] }, module: helloBrowser },
      { manifest: { id: 'probe', requires: ['hello'] }, module: probe },
    ];
    booted = await bootWorkbench(entries, { path: '/probe/', api });
    await booted.waitFor(() => !!byTestId('greeting-card-editor'));

    typeInto(document.getElementById('greeting-card-to') as HTMLInputElement, 'Ben');
    await booted.waitFor(() => byTestId('value')!.textContent === JSON.stringify({ ...card, to: 'Ben' }));

    assert.match(byTestId('greet-node-progress')!.textContent!, /50 % greeted/);
    assert.equal(byTestId('greet-node-result')!.textContent, '2 greetings');

    assert.equal(byTestId('menu-on-string')!.textContent, '0', 'no entry on datums of other types');
    byTestId('menu-hello.save-as-greeting')!.click();
    await booted.waitFor(() => text().includes('The greeting to “Anna” was saved.'));
    const saved = api.calls.find((c) => c.method === 'POST' && c.path === '/api/v1/greeting/');
    assert.deepEqual(saved?.body, { name: 'Anna', message: 'Moin' });
  });
});
// #endregion browser-test
