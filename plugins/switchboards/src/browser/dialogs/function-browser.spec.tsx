import { boot, byTestId, clickText, text, typeInto, type BootedWorkbench } from '../switchboards-test-kit';
import { dblclick, fn, press, probe } from './dialogs-test-kit';
import assert from 'node:assert/strict';
import type { RecordedCall } from '@werkbank/testing/browser';
import { FunctionBrowser, FUNCTION_DRAG_TYPE } from './function-browser';
import type { FunctionInfo } from '../../common/switchboard-types';

const ALL = [
  ...Array.from({ length: 25 }, (_, i) => fn(`string.op${String(i).padStart(2, '0')}`)),
  fn('wfs.import', { superuser_required: true }),
];
const submitted: FunctionInfo[] = [];
let props: { inputType?: string; outputType?: string } = {};

function Probe() {
  return <FunctionBrowser {...props} onSubmit={(f) => submitted.push(f)} />;
}

/** The function list as the server pages it; the namespace list asks for 1000 at once. */
function functions(call: RecordedCall) {
  const q = (call.query ?? {}) as Record<string, string | number | undefined>;
  const ns = q.namespace ? String(q.namespace).split(',') : undefined;
  const found = ALL.filter((f) => (!ns || ns.includes(f.namespace)) && (!q.q || f.name.includes(String(q.q))));
  const offset = Number(q.offset ?? 0);
  const limit = Number(q.limit ?? 1000);
  return { objects: found.slice(offset, offset + limit), meta: { offset, limit, total_count: found.length } };
}

const routes = (extra: Record<string, unknown> = {}) => ({
  'GET /api/v1/function/': functions,
  'GET /api/v1/type/': { objects: ['string', 'geojson', 'depot'].map((name) => ({ name })), meta: {} },
  ...extra,
});

/** The list calls (not the namespace list's one call with limit 1000). */
const listCalls = (b: BootedWorkbench) =>
  b.api.calls.filter((c) => c.path === '/api/v1/function/' && c.query?.limit === 10).map((c) => c.query!);
const rows = () => [...document.body.querySelectorAll<HTMLElement>('[data-testid="function-item"]')];
const selectedName = () => rows().find((r) => r.getAttribute('aria-selected') === 'true')?.dataset.name;

describe('switchboards: function browser (jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  beforeEach(() => ((submitted.length = 0), (props = {})));
  afterEach(async () => booted?.unmount());

  it('loads 10 functions at a time, 10 more with the More button or by scrolling', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    assert.match(byTestId('function-count')!.textContent!, /10 of 26 functions/);
    byTestId('function-more')!.click();
    await booted.waitFor(() => rows().length === 20);
    byTestId('function-list')!.dispatchEvent(new window.Event('scroll'));
    await booted.waitFor(() => rows().length === 26);
    assert.equal(byTestId('function-more'), null, 'nothing more to load');
    assert.deepEqual(
      listCalls(booted).map((q) => [q.offset, q.limit]),
      [
        [0, 10],
        [10, 10],
        [20, 10],
      ],
    );
  });

  it('moves the selection with the arrow keys and submits it with Enter, or by double-click', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    const search = byTestId<HTMLInputElement>('function-search')!;
    assert.equal(selectedName(), 'string.op00');
    press(search, 'ArrowDown');
    press(search, 'ArrowDown');
    await booted.waitFor(() => selectedName() === 'string.op02');
    press(search, 'ArrowUp');
    await booted.waitFor(() => selectedName() === 'string.op01');
    press(search, 'Enter');
    await booted.waitFor(() => submitted.length === 1);
    assert.deepEqual(
      submitted.map((f) => f.name),
      ['string.op01'],
    );
    dblclick(rows()[5]);
    assert.deepEqual(
      submitted.map((f) => f.name),
      ['string.op01', 'string.op05'],
    );
  });

  it('Enter right after typing inserts from the results of what was typed, not the list before', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    const search = byTestId<HTMLInputElement>('function-search')!;
    typeInto(search, 'op07');
    press(search, 'Enter');
    await booted.waitFor(() => submitted.length === 1);
    assert.equal(submitted[0].name, 'string.op07');
  });

  it('has one clear button in its search field, not a second one of the browser (issue 14 item 16)', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    const search = byTestId<HTMLInputElement>('function-search')!;
    // A search input gets the browser's own clear button (::-webkit-search-cancel-button).
    assert.notEqual(search.type, 'search');
    typeInto(search, 'op07');
    await booted.waitFor(() => !!search.parentElement!.querySelector('button'));
    const clears = [...search.parentElement!.querySelectorAll('button')];
    assert.deepEqual(
      clears.map((b) => b.getAttribute('aria-label')),
      ['Clear search'],
    );
    clears[0].click();
    await booted.waitFor(() => search.value === '');
  });

  it('loads the next page when the arrow key passes the last loaded function', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    const list = byTestId('function-list')!;
    for (let i = 0; i < 10; i++) press(list, 'ArrowDown');
    await booted.waitFor(() => rows().length === 20 && selectedName() === 'string.op10');
  });

  it('lets a function be dragged onto the canvas by its name', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    const data: Record<string, string> = {};
    const drag = new window.Event('dragstart', { bubbles: true });
    Object.defineProperty(drag, 'dataTransfer', {
      value: { setData: (k: string, v: string) => (data[k] = v), effectAllowed: '' },
    });
    rows()[3].dispatchEvent(drag);
    assert.deepEqual(data, { [FUNCTION_DRAG_TYPE]: 'string.op03' });
    assert.equal(rows()[3].getAttribute('draggable'), 'true');
  });

  it('favours and unfavours a function with a notification, and updates its star', async () => {
    booted = await boot(
      '/probe/',
      routes({
        'POST /api/v1/function/string.op00/favor/': {
          status: 'ok',
          favored: true,
          function: fn('string.op00', { favored: true }),
        },
        'POST /api/v1/function/string.op00/unfavor/': { status: 'ok', favored: false, function: fn('string.op00') },
      }),
      [probe(Probe)],
    );
    await booted.waitFor(() => rows().length === 10);
    const star = () => rows()[0].querySelector<HTMLElement>('[data-testid="function-favorite"]')!;
    assert.equal(star().getAttribute('aria-label'), 'Add to favourites');
    star().click();
    await booted.waitFor(() => text().includes('Function added to favourites'));
    assert.equal(star().getAttribute('aria-label'), 'Remove from favourites');
    star().click();
    await booted.waitFor(() => text().includes('Function removed from favourites'));
    assert.equal(star().getAttribute('aria-label'), 'Add to favourites');
    assert.deepEqual(
      booted.api.calls.filter((c) => /favor\/$/.test(c.path)).map((c) => c.path),
      ['/api/v1/function/string.op00/favor/', '/api/v1/function/string.op00/unfavor/'],
    );
  });

  it('notes that only administrators may run a superuser function', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    assert.equal(document.body.querySelectorAll('[data-testid="function-superuser"]').length, 0);
    const select = byTestId<HTMLSelectElement>('function-namespace-select')!;
    await booted.waitFor(() => select.options.length === 3);
    select.value = 'wfs';
    select.dispatchEvent(new window.Event('change', { bubbles: true }));
    await booted.waitFor(() => rows().length === 1);
    assert.match(rows()[0].textContent!, /Only administrators may run this function\./);
  });

  it('shows namespace filters as removable chips and sends them comma separated', async () => {
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    rows()[0].querySelector<HTMLElement>('[data-testid="function-namespace"]')!.click();
    await booted.waitFor(() => !!byTestId('function-namespace-chip-string'));
    const select = byTestId<HTMLSelectElement>('function-namespace-select')!;
    select.value = 'wfs';
    select.dispatchEvent(new window.Event('change', { bubbles: true }));
    await booted.waitFor(() => !!byTestId('function-namespace-chip-wfs') && rows().length === 10);
    assert.equal(listCalls(booted).at(-1)!.namespace, 'string,wfs');
    byTestId('function-namespace-chip-string')!.querySelector('button')!.click();
    await booted.waitFor(() => !byTestId('function-namespace-chip-string') && rows().length === 1);
    assert.equal(listCalls(booted).at(-1)!.namespace, 'wfs');
    assert.equal(rows()[0].dataset.name, 'wfs.import');
  });

  it('sends the type filters, the favourites filter and queries from 2 characters on', async () => {
    props = { inputType: '/api/v1/type/geojson/' };
    booted = await boot('/probe/', routes(), [probe(Probe)]);
    await booted.waitFor(() => rows().length === 10);
    assert.equal(listCalls(booted)[0].input_type, 'geojson');
    assert.equal(byTestId<HTMLSelectElement>('function-input-type')!.value, 'geojson');
    const output = byTestId<HTMLSelectElement>('function-output-type')!;
    await booted.waitFor(() => output.options.length === 4);
    output.value = 'depot';
    output.dispatchEvent(new window.Event('change', { bubbles: true }));
    await booted.waitFor(() => listCalls(booted!).at(-1)!.output_type === 'depot');
    assert.equal(listCalls(booted).at(-1)!.input_type, 'geojson');
    clickText('Favourites');
    await booted.waitFor(() => listCalls(booted!).at(-1)!.filter === 'favorites');
    typeInto(byTestId<HTMLInputElement>('function-search')!, 'w');
    // Switching favourites off reloads at once with the query as sent: one character is no query.
    clickText('Favourites');
    await booted.waitFor(() => listCalls(booted!).at(-1)!.filter === undefined);
    assert.equal(listCalls(booted).at(-1)!.q, undefined, 'one character does not search');
    typeInto(byTestId<HTMLInputElement>('function-search')!, 'wfs!');
    await booted.waitFor(() => listCalls(booted!).at(-1)!.q === 'wfs!');
  });
});
