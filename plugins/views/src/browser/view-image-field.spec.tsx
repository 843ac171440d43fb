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
import { definePlugin, type UploadPart, type UploadReply } from '@werkbank/sdk/browser';
import viewsBrowser from './views-browser-module';
import { ViewImageUploadTransport } from './view-image-upload-transport';
import type { View } from '../common/view-types';

/** Answers image uploads with `reply` and records what was sent. */
class FakeTransport {
  readonly sent: Array<{ url: string; parts: string[] }> = [];
  reply: UploadReply = { status: 200, statusText: 'OK', text: '{}' };
  /** When set, the reply waits for it. */
  hold?: Promise<void>;
  async send(url: string, parts: UploadPart[], onProgress: (f: number) => void): Promise<UploadReply> {
    this.sent.push({ url, parts: parts.map((p) => `${p[0]}:${p.length === 3 ? p[2] : p[1]}`) });
    onProgress(0.5);
    await this.hold;
    return this.reply;
  }
}

const ADDRESS = '/api/v1/view/7/image/';
const uploaded: UploadReply = {
  status: 200,
  statusText: 'OK',
  text: JSON.stringify({ image: ADDRESS, size: 420, mime: 'image/png' }),
};

/** A view as the server replies it (an open record for the fake client). */
type WireView = View & Record<string, unknown>;

const wireView = (fields: Partial<View> = {}): WireView => ({
  id: 7,
  resource_uri: '/api/v1/view/7/',
  name: 'Stadtgrün',
  subline: '',
  description: '',
  slug: 'stadtgruen',
  public: false,
  image: '',
  home: null,
  layergroup: { layers: [], layergroups: [] } as unknown as View['layergroup'],
  poigroup: { pois: [], poigroups: [] } as unknown as View['poigroup'],
  config: {} as View['config'],
  permissions: [],
  user: '/api/v1/user/1/',
  owner: '/api/v1/user/1/',
  access: ['read', 'write'],
  created: '2026-11-27T00:00:00Z',
  modified: '2026-11-27T00:00:00Z',
  ...fields,
});

async function boot(transport: FakeTransport, fields: Partial<View> = {}): Promise<BootedWorkbench> {
  const stored = wireView(fields);
  const probe = definePlugin((ctx) => {
    ctx.rebind(ViewImageUploadTransport).toConstantValue(transport);
  });
  const plugins = [
    await browserPlugin('types'),
    await browserPlugin('magazine'),
    await browserPlugin('layers'),
    { manifest: { id: 'views', requires: ['magazine', 'layers'] }, module: viewsBrowser },
    { manifest: { id: 'probe', requires: ['views'] }, module: probe },
  ];
  return bootWorkbench(plugins, {
    path: '/views/edit/7',
    config: testConfig({ plugins: plugins.map((p) => p.manifest.id), components: {} }),
    api: new RecordingApiClient({
      'GET /api/v1/view/7/': stored,
      'PATCH /api/v1/view/7/': (c) => ({ ...stored, ...(c.body as object) }),
      'DELETE /api/v1/view/7/image/': null,
    }),
  });
}

/** Drops `files` on the image drop zone as a browser does. */
function drop(...files: File[]) {
  const event = new window.Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { files } });
  byTestId('view-image-zone')!.dispatchEvent(event);
}

/** Chooses `file` in the zone's file input, as the choose button's file chooser does. */
function choose(file: File) {
  const input = byTestId<HTMLInputElement>('view-image-input')!;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  input.dispatchEvent(new window.Event('change', { bubbles: true }));
}

const file = (name: string, type: string, size = 3) =>
  new (window as unknown as { File: typeof File }).File(['x'.repeat(size)], name, { type });
const image = () => byTestId<HTMLImageElement>('view-image-image');

describe('views: preview image upload in the Settings tab (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('uploads a dropped image at once, shows it, puts its address in the field, and Save does not send it again', async () => {
    const transport = new FakeTransport();
    transport.reply = uploaded;
    booted = await boot(transport);
    await booted.waitFor(() => !!byTestId('view-image-zone'));
    assert.ok(text().includes('No preview image yet.'));
    assert.ok(text().includes('PNG, JPEG, WebP or GIF, up to 5 MB'));
    const input = byTestId<HTMLInputElement>('view-image-input')!;
    assert.equal(input.accept, 'image/png,image/jpeg,image/webp,image/gif');
    assert.equal(input.multiple, false);
    drop(file('park.png', 'image/png'));
    await booted.waitFor(() => !!image());
    assert.deepEqual(transport.sent, [{ url: ADDRESS, parts: ['file:park.png'] }]);
    assert.equal(image()!.getAttribute('src'), `${ADDRESS}?v=1`, 'the thumbnail loads the new image');
    assert.equal(image()!.getAttribute('alt'), 'Preview image of Stadtgrün');
    assert.equal(byTestId<HTMLInputElement>('view-image-address')!.value, ADDRESS);
    await booted.waitFor(() => text().includes('Preview image uploaded'));
    byTestId('view-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    assert.ok(!booted.api.calls.some((c) => c.method === 'PATCH'), 'the image is stored already');
  });

  it('refuses an SVG and a file over 5 MB without sending them, and shows the server’s reason for a file it refuses', async () => {
    const transport = new FakeTransport();
    transport.reply = {
      status: 400,
      statusText: 'Bad Request',
      text: JSON.stringify({ status: 'error', code: 'invalid_image', field: 'image', reason: 'Kein Bild.' }),
    };
    booted = await boot(transport);
    await booted.waitFor(() => !!byTestId('view-image-zone'));
    choose(file('logo.svg', 'image/svg+xml'));
    await booted.waitFor(() => !!byTestId('view-image-error'));
    assert.match(byTestId('view-image-error')!.textContent!, /not a PNG, JPEG, WebP or GIF image/);
    assert.equal(byTestId('view-image-error')!.getAttribute('role'), 'alert');
    choose(file('luftbild.jpg', 'image/jpeg', 5 * 1024 * 1024 + 1));
    await booted.waitFor(() => /larger than 5 MB/.test(byTestId('view-image-error')?.textContent ?? ''));
    assert.equal(transport.sent.length, 0, 'refused before sending');
    choose(file('notiz.png', 'image/png'));
    await booted.waitFor(() => byTestId('view-image-error')?.textContent === 'Kein Bild.');
    assert.equal(transport.sent.length, 1);
    assert.equal(image(), null, 'nothing changed');
  });

  it('ignores a second file while one goes up and announces the upload', async () => {
    const transport = new FakeTransport();
    transport.reply = uploaded;
    let release = () => {};
    transport.hold = new Promise<void>((r) => (release = r));
    booted = await boot(transport);
    await booted.waitFor(() => !!byTestId('view-image-zone'));
    drop(file('eins.png', 'image/png'));
    await booted.waitFor(() => text().includes('Uploading the image…'));
    assert.ok(document.querySelector('[data-testid="view-image"] [role="status"]')!.textContent!.includes('Uploading'));
    drop(file('zwei.png', 'image/png'));
    release();
    await booted.waitFor(() => !!image());
    assert.equal(transport.sent.length, 1, 'a file dropped while busy is not sent');
  });

  it('removes a stored image at once and moves the focus to the choose button', async () => {
    booted = await boot(new FakeTransport(), { image: ADDRESS });
    await booted.waitFor(() => !!byTestId('view-image-remove'));
    assert.equal(image()!.getAttribute('src'), ADDRESS);
    byTestId('view-image-remove')!.click();
    await booted.waitFor(() => text().includes('No preview image yet.'));
    assert.ok(booted.api.calls.some((c) => c.method === 'DELETE' && c.path === ADDRESS));
    assert.equal(byTestId('view-image-remove'), null);
    assert.equal(byTestId<HTMLInputElement>('view-image-address')!.value, '');
    const focused = document.activeElement as HTMLElement;
    assert.ok(byTestId('view-image-zone')!.contains(focused) && focused.tagName === 'BUTTON', 'focus on the choose button');
    assert.ok(focused.textContent!.includes('Choose image'));
  });

  it('keeps the address field for an image elsewhere: shown as the thumbnail and saved with Save', async () => {
    booted = await boot(new FakeTransport());
    await booted.waitFor(() => !!byTestId('view-image-address'));
    typeInto(byTestId<HTMLInputElement>('view-image-address')!, 'https://example.org/gruen.webp');
    await booted.waitFor(() => !!image());
    assert.equal(image()!.getAttribute('src'), 'https://example.org/gruen.webp');
    byTestId('view-save')!.click();
    await booted.waitFor(() => text().includes('Object was saved'));
    const patch = booted.api.calls.find((c) => c.method === 'PATCH');
    assert.deepEqual(patch?.body, { image: 'https://example.org/gruen.webp' });
  });

  it('shows only the image to readers who may not change the view', async () => {
    booted = await boot(new FakeTransport(), { image: ADDRESS, access: ['read'] });
    await booted.waitFor(() => !!image());
    assert.equal(byTestId('view-image-zone'), null);
    assert.equal(byTestId('view-image-remove'), null);
    assert.equal(byTestId<HTMLInputElement>('view-image-address')!.disabled, true);
  });
});
