/**
 * The upload peer of bench/upload: a minimal node:http server, run as its own process
 * (`node --import tsx bench/upload-peer-server.ts` with PEER_DIR set). Every POST body is streamed
 * as it is (multipart framing included, no parsing, no hashing) into a new file in PEER_DIR,
 * fsynced, closed, and answered `201 {"bytes": n}`. It prints `listening on http://127.0.0.1:<port>`.
 * This is the floor for "stream a request body to disk durably" in Node: what Werkbank adds on top
 * (session, CSRF, multipart parsing, SHA-256, database rows) is what the ratio measures.
 */
import { createServer } from 'node:http';
import { close, createWriteStream, fsync, open } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

const dir = process.env.PEER_DIR;
if (!dir) throw new Error('PEER_DIR must name the folder the peer writes into');
let seq = 0;

const server = createServer((req, res) => {
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method !== 'POST') return reply(405, { detail: 'POST only' });
  const path = join(dir, `upload-${++seq}.bin`);
  void (async () => {
    // A plain descriptor, not a FileHandle: FileHandle.close() waits for a stream made from it to let go.
    const fd = await promisify(open)(path, 'wx');
    const out = createWriteStream('', { fd, autoClose: false });
    try {
      await pipeline(req, out);
      await promisify(fsync)(fd);
    } finally {
      await promisify(close)(fd);
    }
    reply(201, { bytes: out.bytesWritten });
  })().catch((err: Error) => reply(500, { detail: err.message }));
});
// Like Werkbank: no request timeout, a big upload may take minutes.
server.requestTimeout = 0;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
