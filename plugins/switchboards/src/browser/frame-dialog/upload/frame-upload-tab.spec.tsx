import { byTestId, text, type BootedWorkbench } from '../../switchboards-test-kit';
import assert from 'node:assert/strict';
import { UPLOAD_LIMIT_BYTES } from '@werkbank/sdk/browser';
import { closed, CONTENT, contentOf, FRAME_URI, frameRoutes, openFrameDialog } from '../frame-dialog-test-kit';
import type { FrameItem } from '../frame-kind';
import { FrameUploadTransport, type UploadPart, type UploadReply } from './frame-upload-transport';

/** A transport that answers per file name, records what it was sent, and lets a test finish each upload. */
class FakeTransport {
  readonly sent: Array<{ url: string; parts: string[] }> = [];
  private readonly waiting: Array<() => void> = [];
  constructor(
    private readonly replies: Record<string, UploadReply>,
    private readonly onSent: (name: string) => void = () => undefined,
  ) {}
  async send(url: string, parts: UploadPart[], onProgress: (f: number) => void): Promise<UploadReply> {
    this.sent.push({ url, parts: parts.map((p) => (typeof p[1] === 'string' ? `${p[0]}=${p[1]}` : `${p[0]}:${p[2]}`)) });
    onProgress(0.5);
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    const name = parts[0][1] as string;
    const reply = this.replies[name];
    if (reply.status < 300) this.onSent(name);
    return reply;
  }
  /** Lets the oldest running upload answer. */
  finishNext(): void {
    this.waiting.shift()?.();
  }
  get running(): number {
    return this.waiting.length;
  }
}

const ok: UploadReply = { status: 201, statusText: 'Created', text: JSON.stringify({ file: { status: 'success' } }) };
const refused = (reason: string): UploadReply => ({
  status: 409,
  statusText: 'Conflict',
  text: JSON.stringify({ status: 'error', reason, code: 'duplicate_name' }),
});

/** Drops `files` on the drop zone as a browser would. */
function drop(files: unknown[]) {
  const event = new window.Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { files } });
  byTestId('frame-dropzone')!.dispatchEvent(event);
}

const file = (name: string, body = 'a;b\n1;2\n') =>
  new (window as unknown as { File: typeof File }).File([body], name, { type: 'text/csv' });
const statuses = () =>
  [...document.querySelectorAll('[data-testid="frame-upload-item"]')].map((e) => e.getAttribute('data-status'));

describe('frame dialog: file upload (spec 001 §2.6)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('uploads files one after another into the frame with a status each, and reloads the items', async () => {
    const stored: FrameItem[] = [];
    const transport = new FakeTransport(
      { 'a.csv': ok, 'b.csv': refused('The frame already holds a file named b.csv.') },
      (name) => stored.push({ value: name, size: 8, mime_type: 'text/csv' }),
    );
    const routes = frameRoutes('file', []);
    routes[`GET ${CONTENT}`] = (call: Parameters<ReturnType<typeof contentOf>>[0]) => contentOf(stored)(call);
    booted = await openFrameDialog(routes, {}, { bind: (ctx) => ctx.bind(FrameUploadTransport).toConstantValue(transport) });
    assert.ok(text().includes('up to 5 GB per file'));
    drop([file('a.csv'), file('b.csv')]);
    await booted.waitFor(() => statuses().join() === 'uploading,queued');
    assert.ok(document.querySelector('[data-testid="frame-upload-item"] .bp6-progress-bar'), 'progress while uploading');
    assert.equal(transport.running, 1, 'one file at a time');
    transport.finishNext();
    await booted.waitFor(() => statuses().join() === 'success,uploading');
    transport.finishNext();
    await booted.waitFor(() => statuses().join() === 'success,failed');
    assert.ok(text().includes('The frame already holds a file named b.csv.'));
    assert.deepEqual(transport.sent[0], { url: `${FRAME_URI}upload/`, parts: ['path=a.csv', 'file:a.csv'] });
    await booted.waitFor(() => booted!.api.calls.filter((c) => c.path === CONTENT).length >= 2);

    byTestId('frame-tab-table')!.click();
    await booted.waitFor(() => (byTestId('frame-table')?.getAttribute('data-columns') ?? '').includes('File name'));
    await booted.waitFor(() => text().includes('a.csv'));
    byTestId('frame-close')!.click();
    assert.deepEqual(closed, [true], 'the caller learns that the frame changed');
  });

  it('fails a file over 5 GB before sending it', async () => {
    const transport = new FakeTransport({});
    booted = await openFrameDialog(
      frameRoutes('file', []),
      {},
      { bind: (ctx) => ctx.bind(FrameUploadTransport).toConstantValue(transport) },
    );
    const huge = { name: 'huge.tif', size: UPLOAD_LIMIT_BYTES + 1 };
    drop([huge]);
    await booted.waitFor(() => statuses().join() === 'failed');
    assert.ok(text().includes('The file is larger than 5 GB.'));
    assert.equal(transport.sent.length, 0);
  });
});
