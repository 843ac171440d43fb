import { inject, injectable, Logger, UrlFetcher } from '@werkbank/sdk/node';
import type { LayerStyle } from '@werkbank/plugin-layers/api';
import { ServicesServices } from '../services-services';

/** Largest image a graphic may name (bytes). */
const MAX_IMAGE_BYTES = 1024 ** 2;
const TIMEOUT_MS = 10_000;
/** How long a fetched image (or the failure to fetch it) is kept before it is asked for again. */
const KEEP_MS = 5 * 60_000;
/** Images kept per process at most. */
const MAX_KEPT = 200;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml']);

interface Kept {
  bytes: Promise<Uint8Array | null>;
  until: number;
}

/**
 * The images that a style's graphics name by address (`graphic_url`), for the WMS renderer: fetched
 * through the server's guarded fetcher (no private addresses, size and time limits), PNG, JPEG, GIF,
 * WebP or SVG, and kept for five minutes per process. An address starting with `/` is one of this
 * server's and is resolved against PUBLIC_URL (none without it). An image that cannot be had is
 * left out (the renderer draws a square in its place, as before) and logged once per keeping period;
 * a map never fails for it.
 */
@injectable()
export class StyleImages {
  @inject(UrlFetcher) protected readonly net!: UrlFetcher;
  @inject(ServicesServices) protected readonly services!: ServicesServices;
  @inject(Logger) protected readonly log!: Logger;

  protected readonly kept = new Map<string, Kept>();

  /** The bytes of the images the style's rules name, by address (those that could be had). */
  async of(style: LayerStyle): Promise<Record<string, Uint8Array> | undefined> {
    const urls = new Set<string>();
    for (const rule of style.rules ?? [])
      if (rule.symbol?.symbol_type === 'graphic' && typeof rule.symbol.graphic_url === 'string' && rule.symbol.graphic_url)
        urls.add(rule.symbol.graphic_url);
    if (!urls.size) return undefined;
    const out: Record<string, Uint8Array> = {};
    await Promise.all(
      [...urls].map(async (url) => {
        const bytes = await this.image(url);
        if (bytes) out[url] = bytes;
      }),
    );
    return out;
  }

  /** One image, from the process's store or fetched (null: it cannot be had). */
  protected image(url: string): Promise<Uint8Array | null> {
    const now = Date.now();
    const kept = this.kept.get(url);
    if (kept && kept.until > now) return kept.bytes;
    const bytes = this.fetch(url);
    this.kept.delete(url);
    this.kept.set(url, { bytes, until: now + KEEP_MS });
    for (const key of this.kept.keys()) {
      if (this.kept.size <= MAX_KEPT) break;
      this.kept.delete(key);
    }
    return bytes;
  }

  protected async fetch(url: string): Promise<Uint8Array | null> {
    const base = this.services.config.publicUrl;
    const address = url.startsWith('/') ? (base ? `${base}${url}` : undefined) : url;
    if (!address) {
      this.log.log(`style image ${url.slice(0, 200)}: a server address needs PUBLIC_URL; drawn as a square`);
      return null;
    }
    try {
      const res = await this.net.fetch(address, {
        maxBytes: MAX_IMAGE_BYTES,
        timeoutMs: TIMEOUT_MS,
        headers: { Accept: 'image/png,image/svg+xml,image/*;q=0.8' },
      });
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase();
      if (!IMAGE_TYPES.has(type)) {
        res.body.destroy();
        this.log.log(
          `style image ${new URL(address).origin}: answered ${type || 'without a type'}, not an image; drawn as a square`,
        );
        return null;
      }
      return new Uint8Array(await res.buffer());
    } catch (e) {
      const reason = (e as { code?: string }).code ?? 'fetch_failed';
      this.log.log(`style image ${url.slice(0, 200)}: ${reason}; drawn as a square`);
      return null;
    }
  }
}
