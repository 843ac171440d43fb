import type Router from '@koa/router';
import type { ComponentGate } from '@werkbank/kernel';
import { MAP_IMAGERY_RELAY_PATH } from '@werkbank/sdk';
import { ApiError, guard, type UrlFetcher, type WerkbankState } from '@werkbank/sdk/node';

/** One map tile or GetMap image is never larger than this. */
export const MAP_IMAGERY_MAX_BYTES = 16 * 1024 * 1024;
/** A remote map service that does not answer within this time fails the tile, not the map. */
const TIMEOUT_MS = 30_000;

/**
 * GET /api/v2/backend/map-imagery?url=<absolute address> (decision 0067): the relay through which
 * the SDK map loads WMS and WMTS imagery of other origins. The CSP lets the map fetch from its own
 * origin only, and user-given addresses are fetched only through the server's URL guard
 * (`fetcher`: no private networks unless FETCH_ALLOWED_HOSTS allows them, every redirect checked).
 * Signed-in users only (realm `layer`); only images pass (anything else answers 502
 * `imagery_not_image`, so the relay cannot read pages or data through the server); at most
 * MAP_IMAGERY_MAX_BYTES; no cookies or credentials go out.
 */
export function mountMapImageryRoute(router: Router<WerkbankState>, fetcher: UrlFetcher, gate: ComponentGate): void {
  router.get(MAP_IMAGERY_RELAY_PATH, async (ctx) => {
    guard(ctx, gate, undefined, 'layer');
    const url = typeof ctx.query.url === 'string' ? ctx.query.url : '';
    if (!url) throw ApiError.badRequest('url_missing', 'errors.imagery_url_missing', {}, 'url');
    const controller = new AbortController();
    ctx.req.once('close', () => controller.abort(new Error('the browser went away')));
    const res = await fetcher.fetch(url, {
      maxBytes: MAP_IMAGERY_MAX_BYTES,
      timeoutMs: TIMEOUT_MS,
      signal: controller.signal,
      headers: { Accept: 'image/png,image/jpeg,image/*;q=0.8' },
    });
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    if (!type.startsWith('image/') || type === 'image/svg+xml') {
      res.body.destroy();
      // A service exception (XML) or a page: its text stays on the server.
      throw new ApiError(502, 'imagery_not_image', 'errors.imagery_not_image', { url: res.url, type: type || '?' });
    }
    ctx.set('Content-Type', type);
    ctx.set('Cache-Control', 'private, max-age=300');
    ctx.body = res.body;
  });
}
