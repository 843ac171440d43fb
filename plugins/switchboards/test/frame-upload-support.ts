import http from 'node:http';
import type { Client, Reply } from '@werkbank/testing/node';
import { FRAMES } from './switchboard-support';
import { multipartParts } from '@werkbank/plugin-magazine/testing';

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** Sends `POST {frame}upload/` as the frame dialog does: the path field before the file. */
export async function frameUpload(
  c: Client,
  frameId: number,
  name: string,
  bytes: Buffer,
  opts: { path?: string; csrf?: boolean } = {},
): Promise<Reply> {
  const form = new FormData();
  if (opts.path !== undefined) form.append('path', opts.path);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const headers: Record<string, string> = { cookie: cookieOf(c) };
  if (opts.csrf !== false) headers['x-csrftoken'] = c.csrfToken ?? '';
  const res = await fetch(`${c.baseUrl}${FRAMES}${frameId}/upload/`, { method: 'POST', body: form, headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

/** GET on an address with the client's cookies, as bytes. */
export async function bytesOf(c: Client, url: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(`${c.baseUrl}${url}`, { headers: { cookie: cookieOf(c) } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/**
 * Starts `POST {frame}upload/` of `bytes` and holds back the end of the form: the server stores
 * the file only once `finish` sends it, so a test can change things while the upload is in flight.
 */
export function heldFrameUpload(c: Client, frameId: number, name: string, bytes: Buffer): { finish(): Promise<Reply> } {
  const { head, tail, type } = multipartParts(name);
  const req = http.request(new URL(`${FRAMES}${frameId}/upload/`, c.baseUrl), {
    method: 'POST',
    headers: {
      'Content-Type': type,
      'Content-Length': head.length + bytes.length + tail.length,
      Cookie: cookieOf(c),
      'X-CSRFToken': c.csrfToken ?? '',
    },
  });
  const reply = new Promise<Reply>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: new Headers() });
      });
    });
  });
  req.write(Buffer.concat([head, bytes]));
  return {
    finish: () => {
      req.end(tail);
      return reply;
    },
  };
}
