import http from 'node:http';
import type { Readable } from 'node:stream';
import { expectStatus, type Client } from '@werkbank/testing/node';

const BOUNDARY = 'werkbank-upload-boundary';

/** A multipart body of (path, file) as the upload widget sends it, split around the file bytes. */
export function multipartParts(path: string, filename = path.split('/').pop()!): { head: Buffer; tail: Buffer; type: string } {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="path"\r\n\r\n${path}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  return { head, tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`), type: `multipart/form-data; boundary=${BOUNDARY}` };
}

export interface RawReply {
  status: number;
  body: any;
  headers: Headers;
}

function toHeaders(h: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
  return out;
}

/** Sends the multipart upload of `data` (a buffer or a stream of `length` bytes) with the client's session. */
export function uploadFile(
  client: Client,
  uploadId: string,
  path: string,
  data: Buffer | { stream: Readable; length: number },
  options: { abortAfter?: number } = {},
): Promise<RawReply> {
  const { head, tail, type } = multipartParts(path);
  const length = Buffer.isBuffer(data) ? data.length : data.length;
  const url = new URL(`/magazine/upload-file/${uploadId}/`, client.baseUrl);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'Content-Type': type,
        'Content-Length': head.length + length + tail.length,
        Cookie: cookie,
        'X-CSRFToken': client.csrfToken ?? '',
        Origin: client.baseUrl,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body, headers: toHeaders(res.headers) });
      });
    });
    req.on('error', (e) =>
      options.abortAfter !== undefined ? resolve({ status: 0, body: String(e), headers: new Headers() }) : reject(e),
    );
    req.write(head);
    if (Buffer.isBuffer(data)) {
      if (options.abortAfter !== undefined) {
        req.write(data.subarray(0, options.abortAfter), () => setImmediate(() => req.destroy()));
        return;
      }
      req.write(data);
      req.end(tail);
    } else {
      data.stream.on('error', reject);
      data.stream.on('end', () => req.end(tail));
      data.stream.pipe(req, { end: false });
    }
  });
}

/** A minimal PNG (1×1) for sniffing. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Starts an upload into a file depot (as the upload dialog does) and returns its upload id. */
export async function uploadReset(client: Client, depot: { resource_uri: string }): Promise<string> {
  return expectStatus<{ upload_id: string }>(await client.post('/magazine/upload-reset/', { depot: depot.resource_uri }), 200)
    .upload_id;
}
