import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { ApiError } from '@werkbank/sdk/node';
import { closeAfterReply, LINGER_BYTES, LINGER_MS } from './close-after-reply';
import { listenTestApp } from './blob-test-support';

/** What the client saw of a refused upload it went on sending after the reply arrived. */
interface Sent {
  reply: string;
  /** Bytes of the body the server accepted (written without error) after the reply arrived. */
  afterReply: number;
  /** Whether the connection ended before the client had sent `bodyBytes`. */
  cutEarly: boolean;
}

describe('closeAfterReply', () => {
  let app: { url: string; close(): Promise<void> };
  const port = () => Number(new URL(app.url).port);

  before(async () => {
    app = await listenTestApp((router) => {
      // Refuses at once, while the body is still arriving (as a 413 during an upload does).
      router.post('/refuse', (ctx) => {
        closeAfterReply(ctx);
        throw new ApiError(413, 'file_too_large', 'errors.file_too_large', { limit: '1 KiB' });
      });
      // Refuses only after it has read the whole body.
      router.post('/read-then-refuse', async (ctx) => {
        await new Promise((res) => ctx.req.once('end', res).resume());
        closeAfterReply(ctx);
        throw ApiError.badRequest('empty_file', 'errors.empty_file');
      });
    });
  });
  after(() => app.close());

  /** Opens a raw connection (half-open allowed, so the test decides when its side ends). */
  async function open(): Promise<Socket> {
    const socket = connect({ port: port(), host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => {});
    await new Promise((res) => socket.once('connect', res));
    return socket;
  }

  /** Posts a declared body of `bodyBytes` to /refuse and keeps sending after the reply until the server stops reading. */
  async function sendPastReply(bodyBytes: number): Promise<Sent> {
    const socket = await open();
    const received: Buffer[] = [];
    let replied = false;
    const replyArrived = new Promise<void>((res) =>
      socket.on('data', (c: Buffer) => {
        received.push(c);
        if (!replied && Buffer.concat(received).includes('\r\n\r\n{')) {
          replied = true;
          res();
        }
      }),
    );
    let broken = false;
    const ended = new Promise<void>((res) => socket.once('close', () => res()));
    void ended.then(() => (broken = true));
    socket.write(`POST /refuse HTTP/1.1\r\nHost: test\r\nContent-Length: ${bodyBytes}\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 1);
    socket.write(chunk);
    await replyArrived;
    let afterReply = 0;
    let left = bodyBytes - chunk.length;
    while (left > 0 && !broken) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      const ok = await new Promise<boolean>((res) => socket.write(part, (err) => res(!err)));
      if (!ok) break;
      afterReply += part.length;
      left -= part.length;
    }
    const cutEarly = left > 0;
    socket.destroy();
    await ended;
    return { reply: Buffer.concat(received).toString(), afterReply, cutEarly };
  }

  it('sends the reply with Connection: close and then reads up to LINGER_BYTES more before it cuts the connection', async () => {
    const sent = await sendPastReply(6 * LINGER_BYTES);
    assert.match(sent.reply, /^HTTP\/1\.1 413 /);
    assert.match(sent.reply, /\r\nConnection: close\r\n/i);
    assert.match(sent.reply, /"code":"file_too_large"/);
    assert.equal(sent.cutEarly, true, 'the server read the whole oversized body');
    // The server drops what arrives after the reply, LINGER_BYTES at most; what the socket buffers
    // on both sides hold comes on top of that (a few MiB on loopback).
    assert.ok(sent.afterReply >= LINGER_BYTES - 512 * 1024, `cut after ${sent.afterReply} bytes`);
    assert.ok(sent.afterReply < 3 * LINGER_BYTES, `read ${sent.afterReply} bytes after the reply`);
  });

  it('ends its side after the reply and cuts a client that goes on trickling bytes after LINGER_MS', async function () {
    this.timeout(LINGER_MS + 10_000);
    const socket = await open();
    socket.resume();
    const serverEnded = new Promise<void>((res) => socket.once('end', () => res()));
    let closed = false;
    const close = new Promise<void>((res) => socket.once('close', () => res()));
    void close.then(() => (closed = true));
    socket.write(`POST /refuse HTTP/1.1\r\nHost: test\r\nContent-Length: 100000\r\n\r\n`);
    socket.write(Buffer.alloc(1000, 1));
    // The server half-closes once the reply is out (FIN) and goes on reading what still comes.
    await serverEnded;
    assert.equal(closed, false);
    // A client that never finishes its body: the server stops reading it after LINGER_MS, and the
    // next byte it sends is refused (reset).
    let trickled = 0;
    while (!closed) {
      socket.write(Buffer.alloc(1, 1), () => {});
      trickled++;
      await Promise.race([close, new Promise((res) => setTimeout(res, 50))]);
    }
    assert.ok(trickled > 1);
  });

  it('keeps the connection open for the next request when the whole body had been read', async () => {
    const socket = await open();
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString()));
    const twoReplies = new Promise<void>((res) =>
      socket.on('data', () => (text.split('HTTP/1.1 400').length === 3 ? res() : undefined)),
    );
    const request = `POST /read-then-refuse HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\nhello`;
    socket.write(request);
    socket.write(request);
    await twoReplies;
    assert.doesNotMatch(text, /Connection: close/i);
    assert.equal(socket.destroyed, false);
    socket.destroy();
  });
});
