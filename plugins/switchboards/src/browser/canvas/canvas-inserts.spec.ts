// The test kit first: it installs the DOM before anything loads React (specs share one process).
import '../switchboards-test-kit';
import assert from 'node:assert/strict';
import type { ApiClient, NotificationService } from '@werkbank/sdk/browser';
import { CanvasActions } from './canvas-actions';
import { CanvasInserts } from './canvas-inserts';
import { CanvasStore } from './canvas-store';
import { FakeCanvasApi } from './fake-canvas-api';

/** Upload replies by file name, as the server gives them (docs/api.md "frame"). */
const REPLIES: Record<string, () => Response> = {
  'gebiete-shp.zip': () =>
    Response.json(
      { status: 'error', code: 'file_too_large', reason: 'Die Datei ist größer als die Grenze von 5 GiB.' },
      { status: 413 },
    ),
  'kaputt.zip': () => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
  'orte.csv': () => Response.json({ file: { status: 'success' } }, { status: 201 }),
};

describe('canvas: uploading dropped files into a new file frame (issue 14 item 1)', () => {
  let api: FakeCanvasApi;
  let store: CanvasStore;
  let actions: CanvasActions;
  let errors: string[];
  let inserts: CanvasInserts;
  const realFetch = globalThis.fetch;

  beforeEach(() => {
    api = new FakeCanvasApi();
    store = new CanvasStore(api as unknown as ApiClient, 1);
    actions = new CanvasActions(api as unknown as ApiClient, store);
    errors = [];
    inserts = new CanvasInserts({
      api: api as unknown as ApiClient,
      notify: { error: (m: string) => errors.push(m), notify: () => {} } as unknown as NotificationService,
      store,
      actions,
      t: (key, opts) => `${key} ${JSON.stringify(opts ?? {})}`,
      center: () => ({ x: 0, y: 0 }),
      guard: (p) => p,
      types: { type: () => ({}), isAssignable: () => true },
    });
    globalThis.fetch = (async (_url: string, init: { body: FormData }) => {
      const file = init.body.get('file') as File;
      return REPLIES[file.name]();
    }) as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  const files = (...names: string[]) => names.map((n) => new File(['x'], n));
  const frames = () => [...api.objects.values()].filter((o) => String(o.resource_uri).includes('/frame/'));

  it('names each failed file with the server’s reason, and leaves no empty frame (nor an undo step) when none arrived', async () => {
    await inserts.insert({ kind: 'upload', files: files('gebiete-shp.zip', 'kaputt.zip') });
    assert.deepEqual(errors, [
      'insert.upload_failed {"file":"gebiete-shp.zip","reason":"Die Datei ist größer als die Grenze von 5 GiB."}',
      'insert.upload_failed {"file":"kaputt.zip","reason":"insert.upload_status {\\"status\\":502}"}',
    ]);
    assert.equal(frames().length, 0, 'the frame is deleted on the server');
    assert.equal(store.frames.size, 0, 'and gone from the canvas');
    assert.equal(actions.undo.canUndo, false, 'there is nothing to undo');
  });

  it('keeps the frame when one file arrived, and reports the other', async () => {
    await inserts.insert({ kind: 'upload', files: files('orte.csv', 'gebiete-shp.zip') });
    assert.equal(errors.length, 1);
    assert.match(errors[0], /gebiete-shp\.zip.*5 GiB/);
    assert.equal(frames().length, 1);
    assert.equal(store.frames.size, 1);
  });
});
