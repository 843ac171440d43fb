/**
 * The JSON documents of OGC API – Features (Part 1 Core, GeoJSON, HTML; Part 2 CRS by Reference):
 * landing page, conformance and collection descriptions, built from a scope (one layer's landing
 * page or the one for all layers) and the layer.
 */
import type { Layer } from '@werkbank/plugin-layers/api';
import type { Publication } from './published-layers';
import { CRS84, crsList } from './oapif-crs';
import type { OapifLink, Texts } from './oapif-html';

/** The conformance classes claimed: only those the service passes (decision 0083, OGC API section). */
export const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
];

export const GEOJSON = 'application/geo+json';
export const JSON_TYPE = 'application/json';
export const HTML = 'text/html';
export const OPENAPI = 'application/vnd.oai.openapi+json;version=3.0';

/**
 * Where a request was made: `base` is the absolute address of its landing page without the final
 * slash (`https://host/services/ogc/baeume` or `https://host/services/ogc`); `keep` the query
 * parameters every link carries on (the API key and a preview moment).
 */
export interface Scope {
  base: string;
  keep: URLSearchParams;
  /** The layer of a per-layer landing page (and its publication); undefined on the one for all layers. */
  layer?: Layer;
  publication?: Publication;
}

/** An address under the scope's landing page with `params` and the kept parameters. */
export function href(scope: Scope, path: string, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, v);
  for (const [k, v] of scope.keep) query.set(k, v);
  const text = query.toString();
  return `${scope.base}${path}${text ? `?${text}` : ''}`;
}

/** The JSON and HTML links of one resource: self in the format given, alternate in the other. */
export function selfLinks(
  t: Texts,
  scope: Scope,
  path: string,
  format: 'json' | 'html',
  jsonType = JSON_TYPE,
  params: Record<string, string | undefined> = {},
): OapifLink[] {
  const json = { href: href(scope, path, { ...params, f: 'json' }), type: jsonType, title: t('oapif.links.json') };
  const html = { href: href(scope, path, { ...params, f: 'html' }), type: HTML, title: t('oapif.links.html') };
  return format === 'json'
    ? [
        { ...json, rel: 'self' },
        { ...html, rel: 'alternate' },
      ]
    : [
        { ...html, rel: 'self' },
        { ...json, rel: 'alternate' },
      ];
}

/** The landing page: title, description and links to the API definition, conformance and data. */
export function landingDocument(t: Texts, scope: Scope, format: 'json' | 'html'): Record<string, unknown> {
  const layer = scope.layer;
  return {
    title: layer ? layer.name : t('oapif.all.title'),
    description: layer ? layer.description || layer.description_title || '' : t('oapif.all.description'),
    links: [
      ...selfLinks(t, scope, '/', format),
      { href: href(scope, '/api', { f: 'json' }), rel: 'service-desc', type: OPENAPI, title: t('oapif.links.api') },
      {
        href: href(scope, '/conformance', { f: 'json' }),
        rel: 'conformance',
        type: JSON_TYPE,
        title: t('oapif.links.conformance'),
      },
      { href: href(scope, '/conformance', { f: 'html' }), rel: 'conformance', type: HTML, title: t('oapif.links.conformance') },
      { href: href(scope, '/collections', { f: 'json' }), rel: 'data', type: JSON_TYPE, title: t('oapif.links.collections') },
      { href: href(scope, '/collections', { f: 'html' }), rel: 'data', type: HTML, title: t('oapif.links.collections') },
    ],
  };
}

/** The temporal extent of a layer (its time range), when it has one. */
function temporal(layer: Layer): Record<string, unknown> | undefined {
  if (!layer.time_min && !layer.time_max) return undefined;
  return {
    interval: [[layer.time_min ?? null, layer.time_max ?? null]],
    trs: 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian',
  };
}

/** One collection: the layer, its id its service name, extent from the layer's bbox, the CRSs offered. */
export function collectionDocument(
  t: Texts,
  scope: Scope,
  layer: Layer,
  id: string,
  format: 'json' | 'html',
): Record<string, unknown> {
  const path = `/collections/${encodeURIComponent(id)}`;
  const time = temporal(layer);
  const extent: Record<string, unknown> = {};
  if (layer.bbox) extent.spatial = { bbox: [layer.bbox], crs: CRS84 };
  if (time) extent.temporal = time;
  return {
    id,
    title: layer.name,
    description: layer.description || layer.description_title || '',
    links: [
      ...selfLinks(t, scope, path, format),
      { href: href(scope, `${path}/items`, { f: 'json' }), rel: 'items', type: GEOJSON, title: t('oapif.links.items') },
      { href: href(scope, `${path}/items`, { f: 'html' }), rel: 'items', type: HTML, title: t('oapif.links.items') },
    ],
    ...(Object.keys(extent).length ? { extent } : {}),
    itemType: 'feature',
    crs: crsList(),
    storageCrs: CRS84,
  };
}
