import { token } from '@werkbank/kernel';
import type { WerkbankContext } from '../http-context';

/** Serving stored blobs over HTTP, after the caller has checked read permission. */
export interface BlobDownloads {
  /**
   * Replies with the blob `hash` for a GET or HEAD: ETag, conditional requests and byte ranges
   * (206), `Content-Security-Policy: sandbox`, inline only for safe types. 404 `blob_missing`
   * when the store has no such blob, 416 for a range outside it.
   */
  send(ctx: WerkbankContext, hash: string, options: SendBlobOptions): Promise<void>;
}
export const BlobDownloads = token<BlobDownloads>('BlobDownloads');

export interface SendBlobOptions {
  /** The size the caller recorded; the stored blob's own size is what is sent. */
  size: number;
  /** The recorded (sniffed) type; see servedAs for what is actually sent. */
  mime: string;
  /** The name offered to the browser (Content-Disposition). */
  filename: string;
  /** `inline` is honoured only for safe types (servedAs); everything else is an attachment. */
  disposition: 'attachment' | 'inline';
}
