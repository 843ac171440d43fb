import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, type MultipartUpload, type MultipartUploadOptions } from '@werkbank/sdk/node';
import { FileBlobStore } from './file-blob-store';
import { readMultipartUpload } from './read-multipart-upload';
import { filesUnder, listenTestApp, multipartBody } from './blob-test-support';

type Outcome = { upload: MultipartUpload } | { error: unknown };
interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Bytes of the request body the client had sent when the reply arrived. */
  sentWhenAnswered: number;
  /** Resolves when the connection has closed. */
  closed: Promise<void>;
}

/**
 * Posts `head`, then `fileBytes` zero bytes in chunks (stopping as soon as a reply arrives), then
 * `tail`. Without `contentLength` the body is sent chunked.
 */
function post(
  url: string,
  body: { contentType: string; head: Buffer; fileBytes: number; tail: Buffer; contentLength?: number },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': body.contentType };
    if (body.contentLength !== undefined) headers['Content-Length'] = String(body.contentLength);
    const req = request(`${url}/upload`, { method: 'POST', headers, agent: false });
    let sent = 0;
    let answered = false;
    const closed = new Promise<void>((res) => req.once('close', () => res()));
    req.on('response', (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          sentWhenAnswered,
          closed,
        }),
      );
    });
    // A server that refuses early closes the connection: later writes fail, which is expected.
    req.on('error', (e) => (answered ? undefined : reject(e)));
    void (async () => {
      const write = async (chunk: Buffer) => {
        sent += chunk.length;
        if (!req.write(chunk)) await new Promise((res) => req.once('drain', res));
      };
      await write(body.head);
      const chunk = Buffer.alloc(64 * 1024);
      for (let left = body.fileBytes; left > 0 && !answered && !req.destroyed; left -= chunk.length) {
        await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
      }
      if (!answered && !req.destroyed) req.end(body.tail);
    })().catch(() => {});
  });
}

/** Posts a whole body in one go. */
const postWhole = (url: string, body: Buffer, contentType: string) =>
  post(url, { contentType, head: body, fileBytes: 0, tail: Buffer.alloc(0), contentLength: body.length });

describe('readMultipartUpload', () => {
  let dataDir: string;
  let store: FileBlobStore;
  let app: { url: string; close(): Promise<void> };
  let options: MultipartUploadOptions & { maxBytes: number };
  let outcomes: Outcome[];
  let waiting: ((o: Outcome) => void)[];
  /** The outcome of the next (or latest unread) upload as the route saw it. */
  const nextOutcome = () => new Promise<Outcome>((res) => (outcomes.length ? res(outcomes.shift()!) : waiting.push(res)));
  const record = (o: Outcome) => (waiting.length ? waiting.shift()!(o) : outcomes.push(o));
  const nothingStored = async () => assert.deepEqual(await filesUnder(store.root), []);

  /**
   * A raw connection that has sent an upload's request head declaring `declared` body bytes; the
   * test writes the body. Collects what the server answers.
   */
  const rawUpload = (contentType: string, declared: number) => {
    const socket = connect(Number(new URL(app.url).port), '127.0.0.1');
    socket.on('error', () => {});
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    const closed = new Promise<void>((res) => socket.once('close', () => res()));
    socket.write(`POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: ${contentType}\r\nContent-Length: ${declared}\r\n\r\n`);
    return { socket, closed, answered: () => received.length > 0, reply: () => Buffer.concat(received).toString() };
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'werkbank-upload-spec-'));
    store = await FileBlobStore.open(dataDir);
    app = await listenTestApp((router) => {
      router.post('/upload', async (ctx) => {
        try {
          const upload = await readMultipartUpload(ctx, store, options);
          record({ upload });
          ctx.status = 201;
          ctx.body = upload;
        } catch (error) {
          record({ error });
          throw error;
        }
      });
    });
  });
  beforeEach(async () => {
    options = { maxBytes: 1024 * 1024 };
    outcomes = [];
    waiting = [];
    await rm(join(store.root, 'sha256'), { recursive: true, force: true });
  });
  after(async () => {
    await app.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('streams the file part into the store and hands the fields sent before it to beforeFile', async () => {
    const calls: [Record<string, string>, string][] = [];
    options.beforeFile = async (fields, filename) => void calls.push([fields, filename]);
    const { body, contentType } = multipartBody(
      { path: 'Städte/Straßen.csv', note: 'first upload' },
      { filename: 'Straßen.csv', data: Buffer.from('id;name\n1;Kiel\n') },
    );
    const reply = await postWhole(app.url, body, contentType);
    assert.equal(reply.status, 201, reply.body);
    const upload = JSON.parse(reply.body) as MultipartUpload;
    assert.deepEqual(upload.fields, { path: 'Städte/Straßen.csv', note: 'first upload' });
    assert.equal(upload.file?.filename, 'Straßen.csv');
    assert.equal(upload.file?.blob.size, 15);
    assert.equal(upload.file?.blob.mime, 'text/csv');
    assert.deepEqual(calls, [[{ path: 'Städte/Straßen.csv', note: 'first upload' }, 'Straßen.csv']]);
    assert.deepEqual(await store.stat(upload.file!.blob.hash), { size: 15 });
    assert.deepEqual(await readdir(store.tmpDir), []);
  });

  it('accepts a file of exactly maxBytes', async () => {
    options.maxBytes = 1000;
    const { body, contentType } = multipartBody({}, { filename: 'a.bin', data: Buffer.alloc(1000, 7) });
    const reply = await postWhole(app.url, body, contentType);
    assert.equal(reply.status, 201, reply.body);
    assert.equal((JSON.parse(reply.body) as MultipartUpload).file?.blob.size, 1000);
  });

  it('refuses a body whose Content-Length cannot fit with 413 before reading it, and the reply reaches the sender', async () => {
    const { head, tail, contentType } = multipartBody({ path: 'big.tif' }, { filename: 'big.tif', data: Buffer.alloc(0) });
    const fileBytes = 200 * 1024 * 1024;
    const reply = await post(app.url, {
      contentType,
      head,
      tail,
      fileBytes,
      contentLength: head.length + fileBytes + tail.length,
    });
    assert.equal(reply.status, 413);
    assert.equal(reply.headers.connection, 'close');
    const body = JSON.parse(reply.body) as { code: string; reason: string };
    assert.equal(body.code, 'file_too_large');
    assert.equal(body.reason.split('.')[0], 'The file is larger than the limit of 1 MiB');
    assert.ok(reply.sentWhenAnswered < 50 * 1024 * 1024, `refused after ${reply.sentWhenAnswered} bytes`);
    await reply.closed;
    await nothingStored();
  });

  it('refuses a declared body that cannot fit as soon as the file part begins, before any of the file arrives', async () => {
    // Without the early refusal the server would wait for the file and answer 408 after this.
    options.idleTimeoutMs = 3000;
    const { head, contentType } = multipartBody({ path: 'big.tif' }, { filename: 'big.tif', data: Buffer.alloc(0) });
    const upload = rawUpload(contentType, head.length + 3 * 1024 * 1024);
    // The form's head and the file's first bytes; the client then waits for an answer.
    upload.socket.write(Buffer.concat([head, Buffer.alloc(100, 1)]));
    await new Promise((res) => upload.socket.once('data', res));
    upload.socket.end();
    await upload.closed;
    assert.match(upload.reply(), /^HTTP\/1\.1 413 [^]*"code":"file_too_large"/);
    await nothingStored();
  });

  it('refuses a chunked upload with 413 once it passes maxBytes, closes the connection and keeps nothing', async () => {
    const { head, tail, contentType } = multipartBody({}, { filename: 'big.bin', data: Buffer.alloc(0) });
    const reply = await post(app.url, { contentType, head, tail, fileBytes: 100 * 1024 * 1024 });
    assert.equal(reply.status, 413);
    assert.equal(reply.headers.connection, 'close');
    assert.ok(reply.sentWhenAnswered < 50 * 1024 * 1024, `refused after ${reply.sentWhenAnswered} bytes`);
    const outcome = await nextOutcome();
    assert.ok('error' in outcome && outcome.error instanceof ApiError && outcome.error.code === 'file_too_large');
    await reply.closed;
    await nothingStored();
  });

  it('leaves no temporary file and no blob when the client disconnects mid-upload', async () => {
    options.maxBytes = 100 * 1024 * 1024;
    const { head, contentType } = multipartBody({ path: 'x.bin' }, { filename: 'x.bin', data: Buffer.alloc(0) });
    const { socket } = rawUpload(contentType, 10 * 1024 * 1024);
    socket.write(head);
    socket.write(Buffer.alloc(256 * 1024, 1));
    // Wait until the file is being written, then cut the connection.
    while ((await readdir(store.tmpDir)).length === 0) await new Promise((res) => setTimeout(res, 10));
    socket.destroy();
    const outcome = await nextOutcome();
    assert.ok('error' in outcome && outcome.error instanceof ApiError, String((outcome as { error: unknown }).error));
    assert.equal(outcome.error.code, 'upload_aborted');
    await nothingStored();
  });

  it('stores nothing when beforeFile refuses, and sends its error while the client is still sending', async () => {
    let calls = 0;
    options.beforeFile = async (fields) => {
      calls++;
      throw new ApiError(409, 'duplicate_name', 'errors.duplicate', { name: fields.path });
    };
    const { head, tail, contentType } = multipartBody({ path: 'taken.tif' }, { filename: 'taken.tif', data: Buffer.alloc(0) });
    const fileBytes = 20 * 1024 * 1024;
    options.maxBytes = 100 * 1024 * 1024;
    const reply = await post(app.url, {
      contentType,
      head,
      tail,
      fileBytes,
      contentLength: head.length + fileBytes + tail.length,
    });
    assert.equal(reply.status, 409);
    assert.equal((JSON.parse(reply.body) as { code: string }).code, 'duplicate_name');
    assert.equal(calls, 1);
    await reply.closed;
    await nothingStored();
  });

  it('refuses requests that are not multipart, lack the file, carry an empty file or end early', async () => {
    const notMultipart = await postWhole(app.url, Buffer.from('{"path": "x"}'), 'application/json');
    assert.equal(notMultipart.status, 400);
    assert.deepEqual(JSON.parse(notMultipart.body), {
      status: 'error',
      code: 'not_multipart',
      reason: "The upload must be sent as multipart/form-data with the file in the field 'file'.",
    });
    // A form the parser could read as fields, but with no way to carry a file.
    const urlencoded = await postWhole(app.url, Buffer.from('path=x.csv&file=id%3Bname'), 'application/x-www-form-urlencoded');
    assert.equal(urlencoded.status, 400);
    assert.equal((JSON.parse(urlencoded.body) as { code: string }).code, 'not_multipart');

    const fieldsOnly = multipartBody({ path: 'x.csv' });
    const missing = await postWhole(app.url, fieldsOnly.body, fieldsOnly.contentType);
    assert.equal(missing.status, 400);
    assert.deepEqual(JSON.parse(missing.body), {
      status: 'error',
      code: 'file_missing',
      field: 'file',
      reason: "The request contains no file. Send the file in the form field 'file'.",
    });

    const empty = multipartBody({}, { filename: 'empty.txt', data: Buffer.alloc(0) });
    const emptyReply = await postWhole(app.url, empty.body, empty.contentType);
    assert.deepEqual(JSON.parse(emptyReply.body), {
      status: 'error',
      code: 'empty_file',
      reason: 'The file is empty. Choose a file that has content.',
    });

    const cut = multipartBody({}, { filename: 'cut.txt', data: Buffer.from('no closing boundary') });
    const cutReply = await postWhole(app.url, cut.body.subarray(0, cut.body.length - cut.tail.length), cut.contentType);
    assert.equal(cutReply.status, 400);
    assert.deepEqual(JSON.parse(cutReply.body), {
      status: 'error',
      code: 'upload_malformed',
      reason: 'The upload could not be read because the form data is incomplete or malformed. Upload the file again.',
    });
    await nothingStored();
  });

  it('refuses a field that is too long, a NUL in a field or the file name, and too many fields, storing nothing', async () => {
    const code = async (fields: Record<string, string>, filename = 'x.txt') => {
      const form = multipartBody(fields, { filename, data: Buffer.from('content') });
      const reply = await postWhole(app.url, form.body, form.contentType);
      const body = JSON.parse(reply.body) as { code?: string; field?: string; reason?: string };
      reasons.push(body.reason);
      return reply.status === 201 ? 'stored' : `${reply.status} ${body.code} ${body.field ?? ''}`.trim();
    };
    const reasons: (string | undefined)[] = [];
    assert.equal(await code({ path: 'a'.repeat(64 * 1024) }), 'stored', 'a field of exactly 64 KiB');
    await rm(join(store.root, 'sha256'), { recursive: true, force: true });
    assert.equal(await code({ path: 'a'.repeat(64 * 1024 + 1) }), '400 field_too_long path');
    assert.equal(reasons.at(-1), "The field 'path' may have at most 65536 characters.");
    assert.equal(await code({ path: 'a\u0000b' }), '400 invalid_text path');
    assert.equal(await code({ 'pa\u0000th': 'x' }), '400 invalid_text pa\u0000th');
    assert.equal(await code({}, 'a\u0000b.txt'), '400 invalid_text file');
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'x']));
    assert.equal(await code(many), '400 too_many_fields');
    assert.equal(reasons.at(-1), 'The upload has more than 50 form fields. Send only the fields the upload needs.');
    assert.equal(await code(Object.fromEntries(Object.entries(many).slice(1))), 'stored', 'fifty fields');
    await rm(join(store.root, 'sha256'), { recursive: true, force: true });
    await nothingStored();
  });

  it('stores the first part named file; other file parts and a second one are read and dropped', async () => {
    const boundary = 'werkbank-test-boundary';
    const part = (name: string, filename: string | undefined, data: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n\r\n${data}\r\n`;
    const body = Buffer.from(
      part('attachment', 'other.txt', 'not this') +
        part('path', undefined, 'x.txt') +
        part('file', 'first.txt', 'the file') +
        part('file', 'second.txt', 'nor this') +
        part('after', undefined, 'late') +
        `--${boundary}--\r\n`,
    );
    const reply = await postWhole(app.url, body, `multipart/form-data; boundary=${boundary}`);
    assert.equal(reply.status, 201);
    const outcome = await nextOutcome();
    assert.ok('upload' in outcome);
    assert.equal(outcome.upload.file?.filename, 'first.txt');
    assert.deepEqual(outcome.upload.fields, { path: 'x.txt', after: 'late' });
    const stored = await filesUnder(store.root);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].endsWith(outcome.upload.file!.blob.hash), true);
    assert.equal(outcome.upload.file?.blob.size, 'the file'.length);
  });

  it('stops an upload that stalls with 408 upload_stalled and keeps nothing', async () => {
    options.idleTimeoutMs = 1500;
    const { head, contentType } = multipartBody({}, { filename: 'slow.bin', data: Buffer.alloc(0) });
    const upload = rawUpload(contentType, 100_000);
    upload.socket.write(Buffer.concat([head, Buffer.alloc(1000, 1)]));
    await upload.closed;
    const reply = upload.reply();
    assert.match(reply, /^HTTP\/1\.1 408 /);
    assert.match(reply, /"code":"upload_stalled"/);
    assert.match(reply, /"reason":"No data arrived for 2 seconds, so the upload was stopped\./);
    await nothingStored();
  });

  it('does not stop an upload that keeps sending, however long it takes', async () => {
    options.idleTimeoutMs = 400;
    const { head, contentType } = multipartBody({}, { filename: 'slow.bin', data: Buffer.alloc(0) });
    const upload = rawUpload(contentType, 100_000);
    upload.socket.write(head);
    // A kilobyte every 25 ms for four times the idle time, then nothing more.
    let sent = 0;
    for (; sent < 64 && !upload.answered(); sent++) {
      upload.socket.write(Buffer.alloc(1024, 1));
      await new Promise((res) => setTimeout(res, 25));
    }
    assert.equal(sent, 64, `stopped after ${sent} of 64 kilobytes`);
    await upload.closed;
    assert.match(upload.reply(), /^HTTP\/1\.1 408 /);
    await nothingStored();
  });
});
