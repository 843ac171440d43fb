import { boot, byTestId, text, type BootedWorkbench } from './magazine-test-kit';
import assert from 'node:assert/strict';
import { createElement } from '@werkbank/sdk/react';
import { definePlugin, RouteContribution, type RouteContribution as RC } from '@werkbank/sdk/browser';
import { FileUploadWidget } from './file-upload-widget';
import { UploadTransport, type UploadPart, type UploadReply } from './upload-transport';

/** A transport that answers per file name and records what it was sent. */
class FakeTransport {
  readonly sent: Array<{ url: string; parts: string[] }> = [];
  constructor(private readonly replies: Record<string, UploadReply>) {}
  async send(url: string, parts: UploadPart[], onProgress: (f: number) => void): Promise<UploadReply> {
    this.sent.push({ url, parts: parts.map((p) => (typeof p[1] === 'string' ? `${p[0]}=${p[1]}` : `${p[0]}:${p[2]}`)) });
    onProgress(0.5);
    const name = (parts[0][1] as string).split('/').pop()!;
    return this.replies[name];
  }
}

const ok: UploadReply = { status: 201, statusText: 'Created', text: JSON.stringify({ file: { status: 'success' } }) };
const refused = (reason: string): UploadReply => ({
  status: 409,
  statusText: 'Conflict',
  text: JSON.stringify({ status: 'error', reason, code: 'duplicate_name' }),
});

let readies = 0;
function probe(transport: FakeTransport) {
  const routes: RC = {
    registerRoutes: (r) =>
      r.add({
        id: 'probe.upload',
        path: '/probe/',
        component: () => createElement(FileUploadWidget, { depot: '/api/v1/depot/7/', onReady: () => readies++ }),
      }),
  };
  return definePlugin((ctx) => {
    ctx.contribute(RouteContribution, routes);
    ctx.rebind(UploadTransport).toConstantValue(transport);
  });
}

/** Drops `files` on the drop zone as a browser would. */
function drop(files: unknown[]) {
  const event = new window.Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { files } });
  byTestId('file-dropzone')!.dispatchEvent(event);
}

const file = (name: string, body = 'a;b\n1;2\n') =>
  new (window as unknown as { File: typeof File }).File([body], name, { type: 'text/csv' });
const items = () => [...document.querySelectorAll('[data-testid="upload-item"]')].map((e) => e.getAttribute('data-status'));

describe('magazine: file upload (browser kernel in jsdom)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('asks for an upload id once per batch, sends path before file, and shows each file’s status and the batch status', async () => {
    readies = 0;
    const transport = new FakeTransport({
      'a.csv': ok,
      'b.csv': refused('A file named b.csv is already in the depot.'),
      'c.csv': refused('The file is empty.'),
    });
    booted = await boot(
      '/probe/',
      { 'POST /magazine/upload-reset/': { upload_id: 'u1', status: 'started', ready: false, files: [] } },
      [{ id: 'probe', module: probe(transport) }],
    );
    await booted.waitFor(() => !!byTestId('file-dropzone'));
    assert.ok(text().includes('up to 5 GB'));
    drop([file('a.csv'), file('b.csv')]);
    await booted.waitFor(() => items().join() === 'success,failed');
    assert.ok(text().includes('A file named b.csv is already in the depot.'));
    assert.equal(byTestId('upload-status')!.getAttribute('data-status'), 'success', 'one failed file is not a failed batch');
    assert.deepEqual(transport.sent[0], { url: '/magazine/upload-file/u1/', parts: ['path=a.csv', 'file:a.csv'] });
    assert.equal(readies, 1, 'the datum list reloads once the batch is ready');

    const resets = () => booted!.api.calls.filter((c) => c.path === '/magazine/upload-reset/');
    assert.deepEqual(
      resets().map((c) => c.body),
      [{ depot: '/api/v1/depot/7/' }],
    );

    drop([file('c.csv'), file('b.csv')]);
    await booted.waitFor(() => items().join() === 'failed,failed');
    assert.equal(byTestId('upload-status')!.getAttribute('data-status'), 'failure', 'more than one failed file fails the batch');
    assert.equal(resets().length, 2, 'files dropped after a finished batch start a new one');
    assert.equal(readies, 1);
  });

  it('refuses a file over 5 GiB before sending anything', async () => {
    const transport = new FakeTransport({});
    booted = await boot('/probe/', {}, [{ id: 'probe', module: probe(transport) }]);
    await booted.waitFor(() => !!byTestId('file-dropzone'));
    // A stand-in: only name and size are read before a file is sent.
    drop([{ name: 'luftbild.tif', size: 5 * 1024 ** 3 + 1 }]);
    await booted.waitFor(() => items().join() === 'failed');
    assert.ok(text().includes('The file is larger than 5 GB and was not uploaded.'));
    assert.equal(transport.sent.length, 0);
    assert.equal(booted.api.calls.length, 0, 'not even an upload id is asked for');
    assert.equal(byTestId('upload-status')!.getAttribute('data-status'), 'failure');
  });
});
