import assert from 'node:assert/strict';
import { bootWorkbench, browserPlugin, byTestId, text, typeInto, type BootedWorkbench } from '@werkbank/testing/browser';
import { useState } from '@werkbank/sdk/react';
import { DatumEditorHost, definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';
import layersBrowser from './layers-browser-module';

const TEMPLATE = {
  layer_type: 'feature',
  time_min: '2020-01-01T00:00:00.000Z',
  time_max: null,
  attr: { min_zoom: 4 },
  selection_fields: [{ key: 'name', displayName: 'Baumart', type: 'title', visible: true }],
  scope: { selection_fields: 'template' },
};

let initial: unknown = TEMPLATE;
let changes: Array<typeof TEMPLATE> = [];

function Probe() {
  const [value, setValue] = useState<unknown>(() => initial);
  return (
    <DatumEditorHost
      contentType="/api/v1/type/layertemplate/"
      value={value}
      onChange={(v) => {
        changes.push(v as typeof TEMPLATE);
        setValue(v);
      }}
    />
  );
}
const probeRoutes: RC = { registerRoutes: (r) => r.add({ id: 'probe.layertemplate', path: '/probe/', component: Probe }) };
const probePlugin = definePlugin((ctx) => ctx.contribute(RouteContribution, probeRoutes));

function choose(select: HTMLSelectElement, value: string): void {
  select.value = value;
  const Ev = (select.ownerDocument.defaultView as unknown as { Event: typeof Event }).Event;
  select.dispatchEvent(new Ev('change', { bubbles: true }));
}

/** spec 001 §2.1 "layer template editor" (decision 0064), on the browser kernel in jsdom. */
describe('layers: the layer template editor', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  async function render(value: unknown, lang: 'en' | 'de' = 'en'): Promise<BootedWorkbench> {
    initial = value;
    changes = [];
    booted = await bootWorkbench(
      [
        await browserPlugin('types'),
        { manifest: { id: 'layers', requires: ['types'] }, module: layersBrowser },
        { manifest: { id: 'probe', requires: ['types', 'layers'] }, module: probePlugin },
      ],
      { path: '/probe/' },
    );
    if (lang === 'de') await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!byTestId('datum-editor-layertemplate'));
    return booted;
  }

  it('is the editor of the layertemplate type and shows its fields', async () => {
    await render(TEMPLATE);
    assert.equal(document.querySelector<HTMLSelectElement>('#layertemplate-type')!.value, 'feature');
    assert.equal(document.querySelector<HTMLSelectElement>('#layertemplate-min_zoom')!.value, '4');
    assert.equal(document.querySelector<HTMLSelectElement>('#layertemplate-max_zoom')!.value, '');
    assert.equal(document.querySelector<HTMLInputElement>('#layertemplate-time-min')!.value, '2020-01-01');
    assert.equal(document.querySelectorAll('[data-testid="layertemplate-field"]').length, 1);
    assert.ok(text().includes("The template's fields"));
  });

  it('hands back the whole template with each change', async () => {
    const b = await render(TEMPLATE);
    choose(document.querySelector<HTMLSelectElement>('#layertemplate-max_zoom')!, '12');
    await b.waitFor(() => changes.length === 1);
    assert.deepEqual(changes[0], { ...TEMPLATE, attr: { min_zoom: 4, max_zoom: 12 } });
    choose(document.querySelector<HTMLSelectElement>('#layertemplate-scope')!, 'all_attributes');
    await b.waitFor(() => changes.length === 2);
    assert.deepEqual(changes[1].scope, { selection_fields: 'all_attributes' });
    byTestId('layertemplate-add-field')!.click();
    await b.waitFor(() => document.querySelectorAll('[data-testid="layertemplate-field"]').length === 2);
    const key = document.querySelector<HTMLInputElement>('input[aria-label="Attribute of field 2"]')!;
    typeInto(key, 'height');
    await b.waitFor(() => changes.at(-1)!.selection_fields[1]?.key === 'height');
    assert.deepEqual(changes.at(-1)!.selection_fields[1], { key: 'height', displayName: '', type: 'text', visible: true });
    choose(document.querySelector<HTMLSelectElement>('#layertemplate-type')!, 'wfs');
    await b.waitFor(() => changes.at(-1)!.layer_type === 'wfs');
  });

  it('starts an empty datum as a new template, in German', async () => {
    const b = await render({}, 'de');
    await b.waitFor(() => text().includes('Auswahlfelder eines neuen Layers'));
    assert.equal(document.querySelector<HTMLSelectElement>('#layertemplate-type')!.value, 'feature');
    assert.ok(text().includes('Die Felder der Vorlage'));
  });
});
