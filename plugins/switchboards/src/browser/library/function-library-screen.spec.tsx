import { boot, byTestId, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { fn, port } from '../dialogs/dialogs-test-kit';
import { LIBRARY_DEBOUNCE_MS } from './function-library-store';
import type { RecordedCall } from '@werkbank/testing/browser';
import type { FunctionInfo } from '../../common/switchboard-types';

const page = (objects: FunctionInfo[]) => ({ objects, meta: { offset: 0, limit: 1000, total_count: objects.length } });
const CATALOGUE = [
  fn('string.upper', { verbose_name: 'Upper case', doc: 'Turns text into upper case.\n\nEvery item on its own.' }),
  fn('wfs.import', {
    verbose_name: 'Import WFS',
    doc: 'Reads features from a WFS.',
    inputs: [port('url', 'string', true), port('bbox', 'geometry', true, { is_optional: true })],
    outputs: [port('features', 'feature', false, { is_list: true })],
    superuser_required: true,
    plugin: 'geodata',
  }),
];
const TYPES = {
  objects: [
    { name: 'string', base_chain: ['string', 'any'] },
    { name: 'feature', base_chain: ['feature', 'geojson', 'any'] },
  ],
  meta: { offset: 0, limit: 1000, total_count: 2 },
};

/** The function list answers by the query's q and namespace, as the server would filter. */
function functionList(call: RecordedCall) {
  const q = String(call.query?.q ?? '').toLowerCase();
  const ns = String(call.query?.namespace ?? '');
  return page(
    CATALOGUE.filter((f) => (!q || `${f.name} ${f.verbose_name}`.toLowerCase().includes(q)) && (!ns || f.namespace === ns)),
  );
}

const names = () => [...document.querySelectorAll('[data-testid="library-function"]')].map((d) => d.getAttribute('data-name'));

describe('switchboards: the function library at /library/ (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('lists every function with its documentation, ports and types, and makes the menu entry live', async () => {
    booted = await boot('/library/', { 'GET /api/v1/function/': functionList, 'GET /api/v1/type/': TYPES });
    await booted.waitFor(() => names().length === 2);
    assert.equal(byTestId('library-count')!.textContent, '2 functions');
    assert.ok(!(byTestId('menu-core.library') as HTMLElement).closest('.bp6-disabled'), 'the Function library entry is enabled');
    const wfs = document.querySelector('[data-name="wfs.import"]') as HTMLDetailsElement;
    assert.equal(wfs.querySelector('summary h3')!.textContent, 'Import WFS');
    assert.ok(wfs.textContent!.includes('Reads features from a WFS.'));
    const ports = [...wfs.querySelectorAll('[data-testid="library-port"]')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    assert.deepEqual(ports, [
      ['url', 'string', 'any', 'required'],
      ['bbox', 'geometry', '–', 'optional'],
      ['features', 'feature', 'geojson → any', 'several frames (list)'],
    ]);
    assert.deepEqual(
      [...wfs.querySelectorAll('caption')].map((c) => c.textContent),
      ['Inputs', 'Outputs'],
    );
    assert.ok(wfs.textContent!.includes('Only administrators may run this function.'));
    assert.ok(wfs.textContent!.includes('Provided by the plugin geodata, version 1.'));
    const upper = document.querySelector('[data-name="string.upper"]')!;
    assert.equal(upper.querySelectorAll('.wb-library-body p').length >= 2, true, 'every paragraph of the doc');
  });

  it('searches by text after a pause in typing and filters by namespace', async () => {
    booted = await boot('/library/', { 'GET /api/v1/function/': functionList, 'GET /api/v1/type/': TYPES });
    await booted.waitFor(() => names().length === 2);
    const input = byTestId('library-search') as HTMLInputElement;
    typeInto(input, 'upper');
    await new Promise((r) => setTimeout(r, LIBRARY_DEBOUNCE_MS + 50));
    await booted.waitFor(() => names().join() === 'string.upper');
    assert.equal(byTestId('library-count')!.textContent, '1 function');
    const searched = booted.api.calls.filter((c) => c.path === '/api/v1/function/' && c.query?.q === 'upper');
    assert.equal(searched.length, 1, 'one request for the typed query');

    typeInto(input, '');
    await booted.waitFor(() => names().length === 2);
    const select = byTestId('library-namespace') as HTMLSelectElement;
    assert.deepEqual(
      [...select.options].map((o) => o.value),
      ['', 'string', 'wfs'],
    );
    select.value = 'wfs';
    select.dispatchEvent(new window.Event('change', { bubbles: true }));
    await booted.waitFor(() => names().join() === 'wfs.import');
    typeInto(input, 'nothing-like-this');
    await booted.waitFor(() => !!byTestId('function-library')!.textContent!.includes('No function matches this search.'));
  });

  it('says why when the function list cannot be loaded', async () => {
    booted = await boot('/library/', {
      'GET /api/v1/function/': () => {
        throw new Error('The server is not reachable.');
      },
      'GET /api/v1/type/': TYPES,
    });
    await booted.waitFor(() => !!document.querySelector('[role="alert"]'));
    assert.ok(
      document
        .querySelector('[role="alert"]')!
        .textContent!.includes('Failed to load the function library: The server is not reachable.'),
    );
  });
});
