import assert from 'node:assert/strict';
import {
  bootWorkbench,
  browserPlugin,
  byTestId,
  RecordingApiClient,
  testConfig,
  text,
  type BootedWorkbench,
} from '@werkbank/testing/browser';
import { definePlugin, type UploadPart, type UploadReply } from '@werkbank/sdk/browser';
import layersBrowser from './layers-browser-module';
import { wireLayer } from './layers-test-kit';
import { LegendUploadTransport } from './legend-upload-transport';

/** Answers legend uploads with `reply` and records what was sent. */
class FakeTransport {
  readonly sent: Array<{ url: string; parts: string[] }> = [];
  reply: UploadReply = { status: 200, statusText: 'OK', text: '{}' };
  /** When set, the reply waits for it. */
  hold?: Promise<void>;
  async send(url: string, parts: UploadPart[]): Promise<UploadReply> {
    this.sent.push({ url, parts: parts.map((p) => `${p[0]}:${p.length === 3 ? p[2] : p[1]}`) });
    await this.hold;
    return this.reply;
  }
}

const uploaded = {
  legend: '/api/v1/layer/7/legend.png',
  size: 420,
  width: 200,
  height: 40,
  alpha: false,
  warnings: [
    { reason: 'legend_width', message: 'The legend is 200 px wide; 130 to 140 px fit best. It was kept.' },
    { reason: 'legend_opaque', message: 'The legend has no transparency; a transparent PNG fits every base map. It was kept.' },
  ],
};

async function boot(transport: FakeTransport, legend = ''): Promise<BootedWorkbench> {
  const stored = wireLayer(7, { name: 'Bäume', legend });
  const probe = definePlugin((ctx) => {
    ctx.rebind(LegendUploadTransport).toConstantValue(transport);
  });
  const plugins = [
    await browserPlugin('types'),
    { manifest: { id: 'layers', requires: ['types'] }, module: layersBrowser },
    { manifest: { id: 'probe', requires: ['layers'] }, module: probe },
  ];
  return bootWorkbench(plugins, {
    path: '/layers/edit/7',
    config: testConfig({ plugins: ['types', 'layers', 'probe'] }),
    api: new RecordingApiClient({
      'GET /api/v1/layer/7/': stored,
      'PATCH /api/v1/layer/7/': (c) => ({ ...stored, ...(c.body as object) }),
      'DELETE /api/v1/layer/7/legend/': null,
    }),
  });
}

/** Chooses `name` in the legend's file input as a browser does. */
function choose(name: string) {
  const input = byTestId<HTMLInputElement>('layer-legend-file')!;
  const file = new (window as unknown as { File: typeof File }).File(['png'], name, { type: 'image/png' });
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  input.dispatchEvent(new window.Event('change', { bubbles: true }));
}

describe('layers: legend upload in the Settings tab (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('uploads a PNG at once, shows it and the server’s warnings, and Save sends no legend', async () => {
    const transport = new FakeTransport();
    transport.reply = { status: 200, statusText: 'OK', text: JSON.stringify(uploaded) };
    booted = await boot(transport);
    await booted.waitFor(() => !!byTestId('layer-legend-file'));
    assert.ok(text().includes('No legend yet.'));
    assert.ok(text().includes('130 to 140 px'), 'the guidance is shown');
    choose('legende.png');
    await booted.waitFor(() => !!byTestId('layer-legend-image'));
    assert.deepEqual(transport.sent, [{ url: '/api/v1/layer/7/legend/', parts: ['file:legende.png'] }]);
    assert.equal(byTestId<HTMLImageElement>('layer-legend-image')!.getAttribute('src'), '/api/v1/layer/7/legend.png?v=1');
    assert.equal(byTestId<HTMLImageElement>('layer-legend-image')!.getAttribute('alt'), 'Legend of Bäume');
    const warnings = [...document.querySelectorAll('[data-testid="layer-legend-warning"]')].map((w) => w.textContent);
    assert.deepEqual(
      warnings,
      uploaded.warnings.map((w) => w.message),
    );
    byTestId('layer-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    assert.ok(!booted.api.calls.some((c) => c.method === 'PATCH'), 'the legend is stored already');
  });

  it('shows the server’s reason when it refuses the file and keeps the legend as it was', async () => {
    const transport = new FakeTransport();
    transport.reply = {
      status: 400,
      statusText: 'Bad Request',
      text: JSON.stringify({
        status: 'error',
        code: 'invalid_legend',
        field: 'legend',
        reason: 'This file is not a PNG image. Upload the legend as a PNG file.',
      }),
    };
    booted = await boot(transport);
    await booted.waitFor(() => !!byTestId('layer-legend-file'));
    choose('bild.gif');
    await booted.waitFor(() => !!byTestId('layer-legend-error'));
    assert.equal(byTestId('layer-legend-error')!.textContent, 'This file is not a PNG image. Upload the legend as a PNG file.');
    assert.equal(byTestId('layer-legend-image'), null);
  });

  it('keeps the keyboard focus on the file input while a file goes up, blocks a second choice, and announces the warnings', async () => {
    const transport = new FakeTransport();
    transport.reply = { status: 200, statusText: 'OK', text: JSON.stringify(uploaded) };
    let release = () => {};
    transport.hold = new Promise<void>((r) => (release = r));
    booted = await boot(transport);
    await booted.waitFor(() => !!byTestId('layer-legend-file'));
    const input = byTestId<HTMLInputElement>('layer-legend-file')!;
    input.focus();
    choose('legende.png');
    await booted.waitFor(() => input.getAttribute('aria-disabled') === 'true');
    assert.equal(input.disabled, false, 'a disabled input would drop the focus to the page');
    assert.equal(document.activeElement, input);
    const click = new window.MouseEvent('click', { bubbles: true, cancelable: true });
    input.dispatchEvent(click);
    assert.equal(click.defaultPrevented, true, 'no second file chooser while busy');
    choose('zweite.png');
    release();
    await booted.waitFor(() => !!byTestId('layer-legend-image') && !input.hasAttribute('aria-disabled'));
    assert.equal(transport.sent.length, 1, 'a file chosen while busy is not sent');
    assert.equal(document.activeElement, input);
    const status = byTestId('layer-legend-warning')!.closest('[role="status"]');
    assert.ok(status, 'the warnings are in a status region');
    assert.equal(status.querySelectorAll('[data-testid="layer-legend-warning"]').length, 2);
  });

  it('announces a refusal as an alert', async () => {
    const transport = new FakeTransport();
    transport.reply = {
      status: 400,
      statusText: 'Bad Request',
      text: JSON.stringify({ status: 'error', code: 'invalid_legend', field: 'legend', reason: 'Kein PNG.' }),
    };
    booted = await boot(transport);
    await booted.waitFor(() => !!byTestId('layer-legend-file'));
    choose('notiz.png');
    await booted.waitFor(() => !!byTestId('layer-legend-error'));
    assert.equal(byTestId('layer-legend-error')!.getAttribute('role'), 'alert');
  });

  it('removes a stored legend', async () => {
    booted = await boot(new FakeTransport(), '/api/v1/layer/7/legend.png');
    await booted.waitFor(() => !!byTestId('layer-legend-remove'));
    assert.equal(byTestId<HTMLImageElement>('layer-legend-image')!.getAttribute('src'), '/api/v1/layer/7/legend.png');
    byTestId('layer-legend-remove')!.click();
    await booted.waitFor(() => text().includes('No legend yet.'));
    assert.ok(booted.api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/layer/7/legend/'));
    assert.equal(byTestId('layer-legend-remove'), null);
    assert.equal(document.activeElement, byTestId('layer-legend-file'), 'the focus moves from the gone button to the upload');
  });
});
