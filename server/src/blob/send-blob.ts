import { ApiError, type BlobStore, type SendBlobOptions, type WerkbankContext } from '@werkbank/sdk/node';
import { contentDisposition } from './content-disposition';
import { servedAs } from './inline-mime';
import { parseRange } from './parse-range';

/**
 * Replies with the blob `hash` for a GET or HEAD, after the caller checked read permission.
 * 200 with Content-Length, `Accept-Ranges: bytes`, `ETag: "<hash>"` and `Cache-Control: private,
 * no-cache`; a matching If-None-Match is 304; a `Range` (the first of several, see parseRange) is
 * 206 with Content-Range, unless an If-Range does not equal the ETag (then 200 in full); a range
 * outside the blob throws ApiError 416 `range_not_satisfiable` with a Content-Range that names the size (`bytes *` + `/size`).
 * Every reply carries `Content-Security-Policy: sandbox` and `X-Content-Type-Options: nosniff`.
 * Throws ApiError 404 `blob_missing` when the store has no such blob.
 */
export async function sendBlob(ctx: WerkbankContext, store: BlobStore, hash: string, opts: SendBlobOptions): Promise<void> {
  const stored = await store.stat(hash);
  if (!stored) throw new ApiError(404, 'blob_missing', 'errors.blob_missing');
  const size = stored.size;
  const etag = `"${hash}"`;
  ctx.set('ETag', etag);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('Content-Security-Policy', 'sandbox');
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (matchesAny(ctx.get('If-None-Match'), hash)) {
    ctx.status = 304;
    return;
  }
  const ifRange = ctx.get('If-Range').trim();
  const range = !ifRange || ifRange === etag ? parseRange(ctx.get('Range'), size) : undefined;
  if (range === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${size}`);
    throw new ApiError(416, 'range_not_satisfiable', 'errors.range_not_satisfiable', { size });
  }
  const served = servedAs(opts.mime, opts.disposition);
  ctx.set('Content-Type', served.contentType);
  ctx.set('Content-Disposition', contentDisposition(served.disposition, opts.filename));
  if (range) {
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  } else {
    ctx.status = 200;
  }
  const length = range ? range.end - range.start + 1 : size;
  ctx.set('Content-Length', String(length));
  // HEAD: headers only, no file opened. An empty blob has nothing to stream either.
  if (ctx.method === 'HEAD' || length === 0) {
    if (length === 0) ctx.body = '';
    return;
  }
  ctx.body = store.open(hash, range);
}

/** If-None-Match: `*` or a list of entity tags, weak ones (`W/"…"`) compared weakly (RFC 9110 §13.1.2). */
function matchesAny(header: string, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === `"${hash}"` || t === `W/"${hash}"`;
  });
}
