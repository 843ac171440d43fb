import { readCookie, token } from '@werkbank/sdk/browser';

/** A reply to a multipart upload: the status and the body text (any status; errors are not thrown). */
export interface UploadReply {
  status: number;
  statusText: string;
  text: string;
}

/** A multipart part: a text value, or a file with its name. Parts are sent in the given order. */
export type UploadPart = [name: string, value: string] | [name: string, value: Blob, filename: string];

export const UploadTransport = token<UploadTransport>('magazine.UploadTransport');
/**
 * Sends a multipart POST with progress (docs/api.md "Uploads"). Rejects only when the request
 * could not be made or was aborted; an error reply resolves like any other reply.
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
