import assert from 'node:assert/strict';
import {
  bootWorkbench,
  browserPlugin,
  byTestId,
  RecordingApiClient,
  testConfig,
  text,
  typeInto,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import layersBrowser from './layers-browser-module';
import { wireLayer } from './layers-test-kit';

const stored = wireLayer(7, {
  revision: 3,
  name: 'Schulen',
  slug: 'schulen',
  style: {
    rules: [
      {
        name: 'Alle',
        symbol: {
          symbol_type: 'style',
          fill: '#ff0000',
          fill_opacity: 0.5,
          stroke: '#000000',
          stroke_width: 2,
          circle_radius: 5,
        },
      },
    ],
  },
});

async function boot(): Promise<BootedWorkbench> {
  const plugins = [await browserPlugin('types'), { manifest: { id: 'layers', requires: ['types'] }, module: layersBrowser }];
  return bootWorkbench(plugins, {
    path: '/layers/edit/7',
    config: testConfig({ plugins: ['types', 'layers'] }),
    api: new RecordingApiClient({
      'GET /api/v1/layer/7/': stored,
      'GET /api/v2/backend/layer-attributes': {
        objects: [
          { name: 'kind', type: 'string' },
          { name: 'pop', type: 'integer' },
        ],
      },
      'PATCH /api/v1/layer/7/': (c) => ({ ...stored, ...(c.body as object), revision: 4 }),
    }),
  });
}

/** The innermost tab of that name: the rule's tabs come after the layer editor's own (which has a Filter tab too). */
const tab = (label: string) =>
  [...document.querySelectorAll<HTMLElement>('[role="tab"]')].filter((t) => t.textContent === label).at(-1)!;
const select = (id: string, value: string) => {
  const el = document.querySelector<HTMLSelectElement>(`#${id}`)!;
  const Ev = (el.ownerDocument.defaultView as unknown as { Event: typeof Event }).Event;
  el.value = value;
  el.dispatchEvent(new Ev('change', { bubbles: true }));
};

describe('layers: the Presentation tab (map style editor, jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('adds a rule with the base symbol, filters it, limits its scale, and saves the style with the layer', async () => {
    booted = await boot();
    await booted.waitFor(() => !!document.querySelector('[role="tab"]'));
    tab('Presentation').click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="style-rule"]').length === 1);
    // The only rule cannot be removed.
    assert.equal(byTestId<HTMLButtonElement>('style-remove-rule')!.disabled, true);
    assert.ok(document.querySelector('[aria-label="Legend of Alle"]'));

    byTestId('style-add-rule')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="style-rule"]').length === 2);
    // The new rule opened, with the base rule's symbol.
    assert.equal(document.querySelector<HTMLInputElement>('#style-symbol-fill')!.value, '#ff0000');
    typeInto(document.querySelector<HTMLInputElement>('#style-rule-name')!, 'Große');
    typeInto(document.querySelector<HTMLInputElement>('#style-symbol-radius')!, '9');
    select('style-symbol-dash', '5-10');

    tab('Filter').click();
    await booted.waitFor(() => !!byTestId('style-filter-add'));
    byTestId('style-filter-add')!.click();
    await booted.waitFor(() => !!document.querySelector('#style-cond-value-0'));
    select('style-cond-attr-0', 'pop');
    select('style-cond-op-0', '>=');
    typeInto(document.querySelector<HTMLInputElement>('#style-cond-value-0')!, '500');

    tab('Zoom level').click();
    await booted.waitFor(() => !!document.querySelector('#style-max_scale_denominator'));
    typeInto(document.querySelector<HTMLInputElement>('#style-max_scale_denominator')!, '25000');
    await booted.waitFor(() => text().includes('≈ zoom level 14.3'));
    typeInto(document.querySelector<HTMLInputElement>('#style-min_scale_denominator')!, '10.5');

    tab('Labeling').click();
    await booted.waitFor(() => !!document.querySelector('#style-text-label'));
    select('style-text-label', 'kind');
    document.querySelector<HTMLInputElement>('#style-use-border')!.click();
    await booted.waitFor(() => !!document.querySelector('#style-halo-radius'));

    byTestId('layer-save')!.click();
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'PATCH'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH')!;
    assert.deepEqual(patch.body, {
      style: {
        rules: [
          stored.style!.rules[0],
          {
            name: 'Große',
            symbol: {
              ...stored.style!.rules[0].symbol,
              circle_radius: 9,
              stroke_dasharray: [5, 10],
              text_label: 'kind',
              text_halo_fill: '#ffffff',
              text_halo_radius: 1,
            },
            filter: { op: '>=', attribute: 'pop', value: 500 },
            max_scale_denominator: 25000,
            // "10.5" is no integer: the scale denominator stays unset (spec 001 §5.3).
            min_scale_denominator: null,
          },
        ],
      },
    });
  });

  it('removes a rule and opens the previous one; shows the tab in German', async () => {
    booted = await boot();
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!document.querySelector('[role="tab"]'));
    tab('Darstellung').click();
    await booted.waitFor(() => !!byTestId('style-add-rule'));
    byTestId('style-add-rule')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="style-rule"]').length === 2);
    byTestId('style-add-rule')!.click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="style-rule"]').length === 3);
    assert.equal(document.querySelector('#style-rule-title')!.textContent, 'Regel 3');
    document.querySelectorAll<HTMLButtonElement>('[data-testid="style-remove-rule"]')[2].click();
    await booted.waitFor(() => document.querySelectorAll('[data-testid="style-rule"]').length === 2);
    assert.equal(document.querySelector('#style-rule-title')!.textContent, 'Regel 2');
    assert.ok(text().includes('Regeln') && text().includes('SLD herunterladen'));
  });
});
