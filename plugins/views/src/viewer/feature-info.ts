/** The viewer's GetFeatureInfo request and the addresses it follows from feature attributes (pure, decision 0088). */
import type { SceneLayer } from '../common/view-scene';
import { withQuery } from './viewer-state';

/** A click on the globe: where, and how many metres a pixel spans there (for GetFeatureInfo's window). */
export interface GlobePick {
  lon: number;
  lat: number;
  metresPerPixel: number;
  /** A drawn feature under the click (switchboard preview): its data source's name and its item. */
  feature?: { source: string; item: number };
}

const SIZE = 101;

/**
 * The GetFeatureInfo request for a click (decision 0088): a window of 101 × 101 pixels around the
 * place at the map's scale, the place in its middle, EPSG:4326 (WMS 1.3.0: latitude first); `params` add the frozen view
 * and the active filters.
 */
export function featureInfoUrl(layer: SceneLayer, pick: GlobePick, params: Record<string, string> = {}): string {
  const half = (SIZE / 2) * pick.metresPerPixel;
  const dLat = half / 111_320;
  const dLon = half / (111_320 * Math.max(0.01, Math.cos((pick.lat * Math.PI) / 180)));
  const bbox = [pick.lat - dLat, pick.lon - dLon, pick.lat + dLat, pick.lon + dLon].map((v) => v.toFixed(8)).join(',');
  const name = encodeURIComponent(layer.source!.wms.layers);
  const query = [
    'SERVICE=WMS',
    'VERSION=1.3.0',
    'REQUEST=GetFeatureInfo',
    `LAYERS=${name}`,
    `QUERY_LAYERS=${name}`,
    'STYLES=',
    'CRS=EPSG:4326',
    `BBOX=${bbox}`,
    `WIDTH=${SIZE}`,
    `HEIGHT=${SIZE}`,
    `I=${(SIZE - 1) / 2}`,
    `J=${(SIZE - 1) / 2}`,
    'INFO_FORMAT=application/json',
    'FEATURE_COUNT=1',
  ];
  return withQuery(`${layer.source!.wms.url}?${query.join('&')}`, params);
}

/** Only web and relative addresses are followed (never `javascript:` and the like). */
export function safeUrl(v: unknown): string | undefined {
  const s = String(v ?? '').trim();
  if (!s) return undefined;
  if (s.startsWith('/') && !s.startsWith('//')) return s;
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
