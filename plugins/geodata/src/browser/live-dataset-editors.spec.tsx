import {
  bootWorkbench,
  byTestId,
  missingTexts,
  text,
  typeInto,
  usedTextKeys,
  type BootedWorkbench,
  browserPlugin,
} from '@werkbank/testing/browser';
import assert from 'node:assert/strict';
import { useState } from '@werkbank/sdk/react';
import { DatumEditorHost, definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';
import geodataBrowser from './geodata-browser-module';
import de from './i18n/de.json';
import en from './i18n/en.json';

const STA = {
  origin: 'https://sta.example.org/FROST-Server',
  sta_version: 'v1.1',
  thing_filter: "properties/type eq 'Pegel'",
  datastream_filter: "name eq 'Wasserstand'",
  mqtt_uri: 'mqtts://sta.example.org:8883',
  batch_size: 250,
};
const REST = {
  origin: 'https://rest.example.org/stations',
  update_interval: 120,
  jp_obj_root: '$.items[*]',
  jp_lat: '$.lat',
  jp_lon: '$.lon',
  properties: ['$.name', '$.level'],
};

/** What the probe renders: editors for `types` (one value each), and every onChange it saw. */
let probe: { types: string[]; value: unknown; readOnly: boolean } = { types: [], value: null, readOnly: false };
let changes: unknown[] = [];

function Probe() {
  const [value, setValue] = useState<unknown>(() => probe.value);
  return (
    <div>
      {probe.types.map((type) => (
        <section key={type} data-type={type}>
          <DatumEditorHost
            contentType={type}
            value={value}
            readOnly={probe.readOnly}
            onChange={(v) => {
              changes.push(v);
              setValue(v);
            }}
          />
        </section>
      ))}
    </div>
  );
}

const probeRoutes: RC = { registerRoutes: (r) => r.add({ id: 'probe.live', path: '/probe/', component: Probe }) };
const probePlugin = definePlugin((ctx) => ctx.contribute(RouteContribution, probeRoutes));

/** The form control of field `name` (NumericInput and HTMLSelect put the test id on a wrapper or the control). */
function control(name: string): HTMLInputElement {
  const el = byTestId(`live-${name}`)!;
  assert.ok(el, `field ${name} is rendered`);
  return (el.matches('input, textarea, select') ? el : el.querySelector('input, textarea, select')) as HTMLInputElement;
}

const flatKeys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flatKeys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe('geodata: live dataset editors (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  async function render(types: string[], value: unknown, readOnly = false): Promise<BootedWorkbench> {
    probe = { types, value, readOnly };
    changes = [];
    booted = await bootWorkbench(
      [
        await browserPlugin('types'),
        { manifest: { id: 'geodata', requires: ['types'] }, module: geodataBrowser },
        { manifest: { id: 'probe', requires: ['types', 'geodata'] }, module: probePlugin },
      ],
      { path: '/probe/' },
    );
    await booted.waitFor(() => document.querySelectorAll('section [data-testid^="datum-editor-"]').length === types.length);
    return booted;
  }

  const editorOf = (type: string) =>
    document.querySelector(`section[data-type="${type}"] [data-testid^="datum-editor-"]`)?.getAttribute('data-testid');

  it('the registry resolves the live dataset editors for their types and the generic editor for others', async () => {
    await render(['sta-livedataset', '/api/v1/type/rest-livedataset/', 'bbox', 'no-such-type'], {});
    assert.equal(editorOf('sta-livedataset'), 'datum-editor-sta-livedataset');
    assert.equal(editorOf('/api/v1/type/rest-livedataset/'), 'datum-editor-rest-livedataset');
    assert.equal(editorOf('bbox'), 'datum-editor-generic');
    assert.equal(editorOf('no-such-type'), 'datum-editor-generic');
  });

  it('the STA editor shows every field of the datum with its label and help text', async () => {
    await render(['sta-livedataset'], STA);
    for (const name of ['origin', 'thing_filter', 'datastream_filter', 'mqtt_uri'] as const)
      assert.equal(control(name).value, STA[name], name);
    assert.equal(control('version').value, 'v1.1');
    assert.deepEqual(
      [...control('version').querySelectorAll('option')].map((o) => o.value),
      ['v1.1'],
    );
    assert.equal(control('batch_size').value, '250');
    for (const key of ['origin', 'version', 'thing_filter', 'datastream_filter', 'mqtt_uri', 'batch_size'] as const)
      assert.ok(text().includes(en.live.sta[key].label), key);
    assert.ok(text().includes('Only SensorThings API v1.1 is supported.'));
  });

  it('the STA editor hands back all fields with the edited one changed', async () => {
    const b = await render(['sta-livedataset'], STA);
    typeInto(control('origin'), 'https://other.example.org/sta');
    await b.waitFor(() => changes.length === 1);
    assert.deepEqual(changes[0], { ...STA, origin: 'https://other.example.org/sta' });
    typeInto(control('thing_filter'), "name eq 'A'");
    await b.waitFor(() => changes.length === 2);
    assert.deepEqual(changes[1], { ...STA, origin: 'https://other.example.org/sta', thing_filter: "name eq 'A'" });
    typeInto(control('batch_size'), '500');
    await b.waitFor(() => changes.length === 3);
    assert.equal((changes[2] as typeof STA).batch_size, 500);
    typeInto(control('batch_size'), '0');
    typeInto(control('batch_size'), '2.5');
    // A valid size typed after them is handed on; had 0 or 2.5 been, they would have come first.
    typeInto(control('batch_size'), '7');
    await b.waitFor(() => changes.length >= 4);
    assert.deepEqual(
      changes.slice(3).map((c) => (c as typeof STA).batch_size),
      [7],
      'a batch size below 1 or not whole is not handed on',
    );
  });

  it('the STA editor offers only v1.1 and marks another version a frame written before holds as not supported', async () => {
    const { sta_version: _, ...before } = STA;
    const b = await render(['sta-livedataset'], { ...before, version: 'v1.0' });
    const select = control('version') as unknown as HTMLSelectElement;
    assert.equal(select.value, 'v1.0');
    assert.deepEqual(
      [...select.options].map((o) => o.text),
      ['v1.1', 'v1.0 (not supported)'],
    );
    select.value = 'v1.1';
    select.dispatchEvent(new window.Event('change', { bubbles: true }));
    await b.waitFor(() => changes.length === 1);
    assert.deepEqual(changes[0], STA);
  });

  it('the REST editor shows every field of the datum, properties one per line', async () => {
    await render(['rest-livedataset'], REST);
    for (const name of ['origin', 'jp_obj_root', 'jp_lat', 'jp_lon'] as const)
      assert.equal(control(name).value, REST[name], name);
    assert.equal(control('update_interval').value, '120');
    assert.equal(control('properties').value, '$.name\n$.level');
    for (const key of ['origin', 'update_interval', 'jp_obj_root', 'jp_lat', 'jp_lon', 'properties'] as const)
      assert.ok(text().includes(en.live.rest[key].label), key);
  });

  it('the REST editor hands back all fields with the edited one changed', async () => {
    const b = await render(['rest-livedataset'], REST);
    typeInto(control('jp_lat'), '$.position.lat');
    await b.waitFor(() => changes.length === 1);
    assert.deepEqual(changes[0], { ...REST, jp_lat: '$.position.lat' });
    typeInto(control('update_interval'), '300');
    await b.waitFor(() => changes.length === 2);
    assert.deepEqual(changes[1], { ...REST, jp_lat: '$.position.lat', update_interval: 300 });
    typeInto(control('properties'), '$.name\n\n  $.level \n$.unit\n');
    await b.waitFor(() => changes.length === 3);
    assert.deepEqual((changes[2] as typeof REST).properties, ['$.name', '$.level', '$.unit']);
    assert.equal(control('properties').value, '$.name\n\n  $.level \n$.unit\n', 'the text keeps what is typed');
  });

  it('an emptied number field is left out, so the default applies', async () => {
    const b = await render(['rest-livedataset'], REST);
    typeInto(control('update_interval'), '');
    await b.waitFor(() => changes.length === 1);
    const { update_interval: _gone, ...rest } = REST;
    assert.deepEqual(changes[0], rest);
    assert.equal(control('update_interval').placeholder, '60');
  });

  it('read-only disables every field of both editors', async () => {
    await render(['sta-livedataset'], STA, true);
    for (const name of ['origin', 'version', 'thing_filter', 'datastream_filter', 'mqtt_uri', 'batch_size'])
      assert.equal(control(name).disabled, true, name);
    await booted!.unmount();
    booted = undefined;
    await render(['rest-livedataset'], REST, true);
    for (const name of ['origin', 'update_interval', 'jp_obj_root', 'jp_lat', 'jp_lon', 'properties'])
      assert.equal(control(name).disabled, true, name);
  });

  it('every text exists in German and English', () => {
    assert.deepEqual(flatKeys(de).sort(), flatKeys(en).sort());
    const used = usedTextKeys(import.meta.dirname);
    assert.ok(used.includes('live.sta.version.label'));
    assert.deepEqual(missingTexts(used, de, en), []);
  });
});
