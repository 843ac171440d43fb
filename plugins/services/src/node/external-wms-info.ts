import { ApiError, inject, injectable, UrlFetcher } from '@werkbank/sdk/node';
import type { WmsImagery } from '@werkbank/sdk';
import { parseRemoteXml } from './remote-xml';
import {
  ExternalMaps,
  REMOTE_TIMEOUT_MS,
  requestKey,
  withoutCredentials,
  wmsAddress,
  type ExternalMapRequest,
} from './external-maps';
import type { Publication } from './published-layers';

type Box = [number, number, number, number];

/** A remote GetFeatureInfo answer as fetched: its media type (without parameters) and bytes. */
export interface ExternalInfo {
  type: string;
  body: Buffer;
}

/** A GetFeatureInfo to cascade: the map as the client sees it, the pixel (I/J), FEATURE_COUNT and the asked INFO_FORMAT. */
export interface ExternalInfoRequest {
  crs: string;
  bbox: Box;
  width: number;
  height: number;
  i: number;
  j: number;
  count: number;
  format: string;
}

/** What a remote WMS's capabilities say of its layers: queryable ones, legend addresses, GetFeatureInfo formats, GetLegendGraphic. */
interface RemoteCapabilities {
  queryable: Set<string>;
  /** Per layer name: the LegendURL of each style (style name, '' for the first). */
  legends: Map<string, Map<string, string>>;
  infoFormats: string[];
  legendGraphic: boolean;
  at: number;
  /** True: the remote could not be read (remembered briefly). */
  failed?: boolean;
}

/** Remote capabilities are read again after this long (ms), and at most this many services are remembered. */
const CAPABILITIES_TTL = 5 * 60_000;
const CAPABILITIES_KEPT = 100;
/** A remote whose capabilities failed is taken as offering nothing for this long (ms); reading them waits at most this long. */
const FAILURE_TTL = 60_000;
const CAPABILITIES_TIMEOUT_MS = 10_000;
/** A remote's capabilities, feature info or legend may be at most this large. */
const REMOTE_TEXT_BYTES = 4 * 1024 * 1024;

/** The INFO_FORMATs asked of a remote for each format the client asks for, in order of preference. */
const REMOTE_INFO_FORMATS: Record<string, string[]> = {
  // Without GeoJSON, MapServer's msGMLOutput (turned into features without geometry).
  'application/json': ['application/json', 'application/geo+json', 'application/geojson', 'application/vnd.ogc.gml'],
  'text/html': ['text/html', 'text/plain'],
  'application/vnd.ogc.gml': ['application/vnd.ogc.gml', 'text/xml', 'application/vnd.ogc.gml/3.1.1'],
  'text/xml': ['text/xml', 'application/vnd.ogc.gml'],
};

/**
 * GetFeatureInfo and legends of external_map and mapproxy layers (decision 0084): what the remote
 * WMS's capabilities say (queryable layers, LegendURLs, GetFeatureInfo formats, remembered five
 * minutes per service), feature info cascaded to it and its legends fetched, all through the
 * server's guarded fetcher like the maps (ExternalMaps), failures as the same address-free errors.
 */
@injectable()
export class ExternalWmsInfo {
  @inject(ExternalMaps) protected readonly maps!: ExternalMaps;
  @inject(UrlFetcher) protected readonly net!: UrlFetcher;
  /** Remote WMS capabilities by service address. */
  private readonly capabilitiesCache = new Map<string, RemoteCapabilities>();

  /** True when a WMS source's capabilities call one of its layers queryable (GetFeatureInfo is then cascaded). */
  async queryable(publication: Publication): Promise<boolean> {
    for (const s of await this.maps.sources(publication)) {
      if (s.kind !== 'wms') continue;
      const caps = await this.remoteCapabilities(s.imagery);
      if (caps && s.imagery.layers.split(',').some((l) => caps.queryable.has(l.trim()))) return true;
    }
    return false;
  }

  /**
   * GetFeatureInfo cascaded to every WMS source (top first) whose capabilities call its layers
   * queryable, in the format the remote offers closest to the asked one; answers that are not text
   * of such a format are left out. Failures are ApiErrors without the address, as for maps.
   */
  async featureInfo(publication: Publication, request: ExternalInfoRequest): Promise<ExternalInfo[]> {
    const out: ExternalInfo[] = [];
    for (const s of await this.maps.sources(publication)) {
      if (s.kind !== 'wms') continue;
      const caps = await this.remoteCapabilities(s.imagery);
      if (!caps) continue;
      const layers = s.imagery.layers
        .split(',')
        .map((l) => l.trim())
        .filter((l) => caps.queryable.has(l));
      if (!layers.length) continue;
      const wanted = REMOTE_INFO_FORMATS[request.format] ?? [request.format];
      const format = wanted.find((f) => caps.infoFormats.includes(f)) ?? (caps.infoFormats.length ? undefined : wanted[0]);
      if (!format) continue;
      const map: ExternalMapRequest = { ...request, format: 'image/png', transparent: true, background: '#ffffff' };
      const url = new URL(wmsAddress(s.imagery, map, 'image/png', true));
      const v13 = (s.imagery.version ?? '1.3.0') === '1.3.0';
      url.searchParams.set('REQUEST', 'GetFeatureInfo');
      url.searchParams.set('QUERY_LAYERS', layers.join(','));
      url.searchParams.set('INFO_FORMAT', format);
      url.searchParams.set('FEATURE_COUNT', String(request.count));
      url.searchParams.set(v13 ? 'I' : 'X', String(request.i));
      url.searchParams.set(v13 ? 'J' : 'Y', String(request.j));
      const answer = await this.text(url.href, s.imagery.url);
      if (!/json|xml|gml|html|text\/plain/.test(answer.type)) continue;
      // A service exception is not an answer.
      if (/ServiceExceptionReport|ExceptionReport/.test(answer.body.subarray(0, 2000).toString('utf8'))) continue;
      out.push(answer);
    }
    return out;
  }

  /** True when a WMS source offers a legend (a LegendURL of its layer, or GetLegendGraphic). */
  async hasLegend(publication: Publication): Promise<boolean> {
    for (const s of await this.maps.sources(publication)) {
      if (s.kind !== 'wms') continue;
      const caps = await this.remoteCapabilities(s.imagery);
      if (caps && (caps.legendGraphic || s.imagery.layers.split(',').some((l) => caps.legends.has(l.trim())))) return true;
    }
    return false;
  }

  /**
   * The remote legends of the WMS sources (top first), one per source layer: its style's LegendURL
   * from the capabilities, else a GetLegendGraphic. Kept like the maps: in a mapproxy's cache per
   * publication, asked every time for an external_map; a legend that fails is left out.
   */
  async legends(
    publication: Publication,
    options: { cache?: boolean } = {},
  ): Promise<Array<{ title: string; bytes: Buffer; type: string }>> {
    const out: Array<{ title: string; bytes: Buffer; type: string }> = [];
    for (const s of await this.maps.sources(publication)) {
      if (s.kind !== 'wms') continue;
      const caps = await this.remoteCapabilities(s.imagery);
      if (!caps) continue;
      const styles = (s.imagery.styles ?? '').split(',');
      const layers = s.imagery.layers.split(',').map((l) => l.trim());
      for (const [k, layer] of layers.entries()) {
        const style = (styles[k] ?? '').trim();
        const listed = caps.legends.get(layer);
        // The style's LegendURL first, then the service's own GetLegendGraphic (a LegendURL may name a host this server may not reach).
        const addresses: string[] = [];
        const listedAddress = listed?.get(style) ?? listed?.get('');
        if (listedAddress) addresses.push(listedAddress);
        if (caps.legendGraphic) {
          const url = new URL(s.imagery.url);
          for (const name of [...url.searchParams.keys()])
            if (['request', 'layers', 'bbox', 'width', 'height', 'crs', 'srs', 'styles', 'format'].includes(name.toLowerCase()))
              url.searchParams.delete(name);
          url.searchParams.set('SERVICE', 'WMS');
          url.searchParams.set('VERSION', s.imagery.version ?? '1.3.0');
          url.searchParams.set('REQUEST', 'GetLegendGraphic');
          url.searchParams.set('LAYER', layer);
          if (style) url.searchParams.set('STYLE', style);
          url.searchParams.set('FORMAT', 'image/png');
          url.searchParams.set('SLD_VERSION', '1.1.0');
          addresses.push(url.href);
        }
        for (const at of addresses) {
          // The remote's own credentials go with addresses of its own origin only.
          const withAuth = sameOrigin(at, s.imagery.url) ? withCredentialsOf(at, s.imagery.url) : at;
          const tileset = `external/legend/${requestKey([withAuth])}`;
          try {
            const image = await this.maps.cached(
              publication,
              { tileset, z: 0, y: 0, x: 0 },
              'image/png',
              options.cache,
              async () => (await this.maps.image(withAuth, s.imagery.url)).bytes,
            );
            out.push({ title: layer, bytes: image.bytes, type: isPng(image.bytes) ? 'image/png' : 'image/jpeg' });
            break;
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            // This address gives no legend (the log has its origin): the next one is tried, else the layer has none.
          }
        }
      }
    }
    return out;
  }

  /** A remote's capabilities (what its layers offer), read through the guarded fetcher and remembered a while; undefined when unreadable. */
  private async remoteCapabilities(imagery: WmsImagery): Promise<RemoteCapabilities | undefined> {
    const url = new URL(imagery.url);
    for (const name of [...url.searchParams.keys()])
      if (
        ['request', 'layers', 'bbox', 'width', 'height', 'crs', 'srs', 'styles', 'format', 'transparent'].includes(
          name.toLowerCase(),
        )
      )
        url.searchParams.delete(name);
    url.searchParams.set('SERVICE', 'WMS');
    url.searchParams.set('VERSION', imagery.version ?? '1.3.0');
    url.searchParams.set('REQUEST', 'GetCapabilities');
    const key = url.href;
    const known = this.capabilitiesCache.get(key);
    if (known && Date.now() - known.at < (known.failed ? FAILURE_TTL : CAPABILITIES_TTL)) return known.failed ? undefined : known;
    let caps: RemoteCapabilities | undefined;
    try {
      const { body } = await this.text(key, imagery.url, CAPABILITIES_TIMEOUT_MS);
      caps = parseRemoteCapabilities(body.toString('utf8'));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      caps = undefined;
    }
    if (this.capabilitiesCache.size >= CAPABILITIES_KEPT)
      this.capabilitiesCache.delete(this.capabilitiesCache.keys().next().value!);
    // A remote that failed is not asked again for a minute, so a GetCapabilities of ours does not wait for it each time.
    const empty = { queryable: new Set<string>(), legends: new Map(), infoFormats: [], legendGraphic: false };
    this.capabilitiesCache.set(key, caps ?? { ...empty, at: Date.now(), failed: true });
    return caps;
  }

  /** A remote text answer (capabilities, feature info) through the guarded fetcher; failures as ApiErrors without the address. */
  private async text(address: string, service: string, timeoutMs = REMOTE_TIMEOUT_MS): Promise<ExternalInfo> {
    const { url, headers } = withoutCredentials(address);
    try {
      const res = await this.net.fetch(url, { maxBytes: REMOTE_TEXT_BYTES, timeoutMs, headers });
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase();
      return { type, body: await res.buffer() };
    } catch (e) {
      throw this.maps.remoteError(e, service);
    }
  }
}

/** True for PNG bytes (by their signature). */
function isPng(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** `address` with the credentials of `service` (same origin), which the fetch turns into Basic authorization. */
function withCredentialsOf(address: string, service: string): string {
  const from = new URL(service);
  const url = new URL(address);
  if (!from.username && !from.password) return address;
  url.username = from.username;
  url.password = from.password;
  return url.href;
}

/** Reads a WMS capabilities document (1.1.1 or 1.3.0): queryable layers, LegendURLs, GetFeatureInfo formats. Undefined when it is none. */
export function parseRemoteCapabilities(text: string): RemoteCapabilities | undefined {
  const doc = parseRemoteXml(text, { isArray: (name) => ['Layer', 'Style', 'Format', 'LegendURL'].includes(name) });
  if (!doc) return undefined;
  const root = (doc.WMS_Capabilities ?? doc.WMT_MS_Capabilities) as Record<string, unknown> | undefined;
  const capability = root?.Capability as Record<string, unknown> | undefined;
  if (!capability) return undefined;
  const request = (capability.Request ?? {}) as Record<string, unknown>;
  const info = request.GetFeatureInfo as { Format?: unknown[] } | undefined;
  const caps: RemoteCapabilities = {
    queryable: new Set(),
    legends: new Map(),
    infoFormats: (info?.Format ?? []).map((f) => String(f).trim()),
    legendGraphic: !!request.GetLegendGraphic,
    at: Date.now(),
  };
  const visit = (layers: unknown[] | undefined, inherited: boolean) => {
    for (const l of layers ?? []) {
      const layer = l as Record<string, unknown>;
      const queryable = layer['@_queryable'] === undefined ? inherited : String(layer['@_queryable']) === '1';
      const name = layer.Name === undefined ? undefined : String(layer.Name).trim();
      if (name) {
        if (queryable) caps.queryable.add(name);
        const styles = new Map<string, string>();
        for (const [k, st] of ((layer.Style ?? []) as Record<string, unknown>[]).entries()) {
          const href = (
            (st.LegendURL as Record<string, unknown>[] | undefined)?.[0]?.OnlineResource as Record<string, unknown> | undefined
          )?.['@_href'];
          if (typeof href !== 'string' || !/^https?:\/\//i.test(href)) continue;
          // Entities are not processed by the parser (no expansion); the five XML ones are decoded here.
          const address = xmlText(href);
          styles.set(String(st.Name ?? '').trim(), address);
          if (k === 0) styles.set('', address);
        }
        if (styles.size) caps.legends.set(name, styles);
      }
      visit(layer.Layer as unknown[] | undefined, queryable);
    }
  };
  visit(capability.Layer as unknown[] | undefined, false);
  return caps;
}

/** Text with the five predefined XML entities decoded (the parser keeps entities as written). */
function xmlText(v: string): string {
  return v.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}
