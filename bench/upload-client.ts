import { createReadStream } from 'node:fs';
import { request } from 'node:http';

const BOUNDARY = 'werkbank-bench-boundary';
/** Read size from disk, like `dd bs=1M`. */
const CHUNK = 1024 * 1024;

export interface UploadReply {
  status: number;
  body: any;
  /** From the first byte sent to the end of the reply. */
  ms: number;
}

/**
 * POSTs `multipart/form-data` with a `path` field and then a `file` part holding the file at
 * `file` (`bytes` long), as the upload widget sends it. The file is streamed from disk with
 * node:http, never held in memory; Content-Length is exact.
 */
export function postMultipart(
  url: string,
  fields: { path: string; file: string; bytes: number },
  headers: Record<string, string> = {},
): Promise<UploadReply> {
  const name = fields.path.split('/').pop()!;
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="path"\r\n\r\n${fields.path}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': head.length + fields.bytes + tail.length,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - started;
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text for the error message
        }
        resolve({ status: res.statusCode ?? 0, body, ms });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(fields.file, { highWaterMark: CHUNK });
    source.on('error', (err) => req.destroy(err));
    source.on('end', () => req.end(tail));
    source.pipe(req, { end: false });
  });
}
