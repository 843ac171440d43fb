import type { Socket } from 'node:net';
import type { WerkbankContext } from '@werkbank/sdk/node';

/** How long, and how many bytes, a refused upload is still read (and dropped) after the reply. */
export const LINGER_MS = 2000;
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Call when refusing a request whose body is still arriving (e.g. 413 during an upload): the
 * reply says `Connection: close`, the rest of the body is dropped, and once the reply is written
 * the connection is half-closed and read for at most LINGER_MS / LINGER_BYTES before it is
 * destroyed. Node would destroy it at once, and a reset that reaches the client while it is still
 * sending can wipe the unread reply there (nodejs/node#9085), so the client would see a broken
 * connection instead of the 413. Does nothing when the body has been read completely.
 */
export function closeAfterReply(ctx: WerkbankContext): void {
  const req = ctx.req;
  if (req.complete || req.destroyed) return;
  ctx.set('Connection', 'close');
  const socket: Socket = req.socket;
  let dropped = 0;
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  req.resume();
  // Node's http server calls destroySoon() after a `Connection: close` reply; end (FIN) instead
  // and destroy after the linger time, or earlier when the client closes its side.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}
