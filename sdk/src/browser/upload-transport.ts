import { readCookie } from '@werkbank/kernel/browser';

/** A reply to a multipart upload: the status and the body text (any status; errors are not thrown). */
export interface UploadReply {
  status: number;
  statusText: string;
  text: string;
}

/** A multipart part: a text value, or a file with its name. Parts are sent in the given order. */
export type UploadPart = [name: string, value: string] | [name: string, value: Blob, filename: string];

/**
 * Sends a multipart POST with upload progress (docs/api.md "Uploads"). Rejects only when the request
 * could not be made or was aborted; an error reply resolves like any other reply. A plugin binds its
 * own token of this interface (default XhrUploadTransport) so that an integrator or a test can replace it.
 */
export interface UploadTransport {
  send(url: string, parts: UploadPart[], onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadReply>;
}

/**
 * The default transport: XMLHttpRequest, since fetch reports no upload progress. Sends the session
 * cookie and the X-CSRFToken header from the csrftoken cookie like the ApiClient (spec 000 §7).
 */
export class XhrUploadTransport implements UploadTransport {
  send(url: string, parts: UploadPart[], onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadReply> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      xhr.withCredentials = true;
      xhr.setRequestHeader('Accept', 'application/json');
      const csrf = readCookie('csrftoken');
      if (csrf) xhr.setRequestHeader('X-CSRFToken', csrf);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
      xhr.onerror = () => reject(new Error('network'));
      xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      const form = new FormData();
      for (const part of parts) {
        if (part.length === 3) form.append(part[0], part[1], part[2]);
        else form.append(part[0], part[1]);
      }
      xhr.send(form);
    });
  }
}

/** The error text of a reply: the body's reason (spec 000 §8), else the status text; '' for a success. */
export function replyError(reply: UploadReply): string {
  let body: { status?: string; reason?: string } | undefined;
  try {
    body = reply.text ? (JSON.parse(reply.text) as typeof body) : undefined;
  } catch {
    body = undefined;
  }
  if (body?.status === 'error') return body.reason || reply.statusText || `HTTP ${reply.status}`;
  return reply.status >= 400 ? reply.statusText || `HTTP ${reply.status}` : '';
}
