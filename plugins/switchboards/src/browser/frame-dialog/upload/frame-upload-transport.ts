import { readCookie, token } from '@werkbank/sdk/browser';

/** A reply to a multipart upload: the status and the body text (any status; errors are not thrown). */
export interface UploadReply {
  status: number;
  statusText: string;
  text: string;
}

/** A multipart part: a text value, or a file with its name. Parts are sent in the given order. */
export type UploadPart = [name: string, value: string] | [name: string, value: Blob, filename: string];

export const FrameUploadTransport = token<FrameUploadTransport>('switchboards.FrameUploadTransport');
/**
 * Sends `POST {frame}upload/` (docs/api.md "frame") with upload progress. Rejects only when the
 * request could not be made; an error reply resolves like any other. An integrator (or a test) may
 * bind this token; without a binding the dialog uses XhrFrameUploadTransport.
 */
export interface FrameUploadTransport {
  send(url: string, parts: UploadPart[], onProgress: (fraction: number) => void): Promise<UploadReply>;
}

/** XMLHttpRequest, since fetch reports no upload progress; with the session cookie and X-CSRFToken like the ApiClient. */
export class XhrFrameUploadTransport implements FrameUploadTransport {
  send(url: string, parts: UploadPart[], onProgress: (fraction: number) => void): Promise<UploadReply> {
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
      xhr.onabort = () => reject(new Error('aborted'));
      const form = new FormData();
      for (const part of parts) {
        if (part.length === 3) form.append(part[0], part[1], part[2]);
        else form.append(part[0], part[1]);
      }
      xhr.send(form);
    });
  }
}

/** The reason of an error reply (its body's `reason`, else the status text); '' for a success. */
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
