import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { append } from '../source-items';
import { esriCrs, esriToGeoJson } from './esri-json';
import { reprojectItems } from './gml-axis';
import { fetchJson, METADATA_BUDGET, PAGE_BUDGET, withParams, type FetchBudget, type Net } from './service-fetch';
import { servicesFailure } from './services-failure';

/** An ArcGIS REST service address split up: `…/FeatureServer` or `…/MapServer`, and a layer id when given. */
export interface ArcgisAddress {
  /** The service root without query (`https://host/arcgis/rest/services/Roads/FeatureServer`). */
  root: string;
  layerId?: number;
  /** Query parameters of the address kept on every request (a token). */
  keep: Record<string, string>;
}

/** What a layer's description (`…/{id}?f=json`) tells about querying it. */
export interface ArcgisLayer {
  id: number;
  name: string;
  type: string;
  maxRecordCount?: number;
  supportedQueryFormats?: string;
  advancedQueryCapabilities?: { supportsPagination?: boolean };
  objectIdField?: string;
}

/** Most features one ArcGIS import reads unless max_features says otherwise. */
export const ARCGIS_MAX_FEATURES = 1_000_000;

/** Page size when a layer names no maxRecordCount. */
export const ARCGIS_PAGE_SIZE = 1000;

/** Splits an ArcGIS REST address; `arcgis_url_invalid` when it does not end in `kind` (or `kind`/{layer id}). */
export function arcgisAddress(url: string, kind: 'FeatureServer' | 'MapServer'): ArcgisAddress {
  const parsed = new URL(url);
  const match = new RegExp(`^(.*/${kind})(?:/(\\d+))?(?:/query)?/?$`, 'i').exec(parsed.pathname);
  if (!match) throw servicesFailure('arcgis_url_invalid', { url, kind });
  const keep: Record<string, string> = {};
  for (const [k, v] of parsed.searchParams) if (k.toLowerCase() === 'token') keep[k] = v;
  return { root: `${parsed.origin}${match[1]}`, layerId: match[2] === undefined ? undefined : Number(match[2]), keep };
}

/**
 * A JSON answer of the ArcGIS REST API; its error object (`{"error": {"code", "message"}}`, sent
 * with status 200) fails `arcgis_error` with the service's code and message.
 */
export async function arcgisJson(
  net: Net,
  url: string,
  ctx: FunctionRunContext,
  budget: FetchBudget = METADATA_BUDGET,
): Promise<Record<string, unknown>> {
  const json = await fetchJson(net, url, ctx, budget);
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw servicesFailure('arcgis_answer_invalid', { url });
  const error = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } }).error;
  if (error && typeof error === 'object') {
    const details = Array.isArray(error.details) ? error.details.join(' ') : '';
    throw servicesFailure('arcgis_error', {
      url,
      code: String(error.code ?? '-'),
      message: `${String(error.message ?? '')} ${details}`.trim().slice(0, 500) || '-',
    });
  }
  return json as Record<string, unknown>;
}

/** The layers to read: the one the address names, else all `layers` of the service description. */
export async function arcgisLayers(
  net: Net,
  address: ArcgisAddress,
  service: Record<string, unknown>,
  ctx: FunctionRunContext,
): Promise<ArcgisLayer[]> {
  const listed = Array.isArray(service.layers) ? (service.layers as Array<{ id?: unknown }>) : [];
  const ids = address.layerId !== undefined ? [address.layerId] : listed.map((l) => Number(l.id)).filter(Number.isInteger);
  const layers: ArcgisLayer[] = [];
  for (const id of ids) {
    const info = await arcgisJson(net, withParams(`${address.root}/${id}`, { ...address.keep, f: 'json' }), ctx);
    layers.push({ ...(info as unknown as ArcgisLayer), id });
  }
  return layers;
}

/**
 * All features of one layer through `query` (where 1=1, all fields, outSR 4326): pages of
 * resultOffset/resultRecordCount while the answer says exceededTransferLimit, or, for a layer
 * without pagination, its object ids in chunks of maxRecordCount. GeoJSON when the layer offers it
 * (supportedQueryFormats), else Esri JSON converted. At most `limit` features: more fail
 * `too_many_features` unless `limited` (the user's max_features). A page that repeats an earlier
 * page's first feature (a service that ignores resultOffset) ends reading.
 */
export async function queryLayer(
  net: Net,
  address: ArcgisAddress,
  layer: ArcgisLayer,
  ctx: FunctionRunContext,
  limit: number,
  limited: boolean,
): Promise<FrameItems> {
  const queryUrl = `${address.root}/${layer.id}/query`;
  const geojson = /geojson/i.test(layer.supportedQueryFormats ?? '');
  const size = Math.max(1, Math.min(layer.maxRecordCount || ARCGIS_PAGE_SIZE, limit));
  const base = {
    ...address.keep,
    where: '1=1',
    outFields: '*',
    returnGeometry: 'true',
    outSR: '4326',
    f: geojson ? 'geojson' : 'json',
  };
  const features: FrameItems = [];
  const firstIds = new Set<unknown>();
  // Reaching the import's own ceiling with more to come fails; reaching max_features just ends reading.
  const tooMany = () => {
    if (!limited)
      throw servicesFailure('too_many_features', { source: layer.name || String(layer.id), limit: ARCGIS_MAX_FEATURES });
  };
  const page = async (params: Record<string, string | number | undefined>) => {
    const url = withParams(queryUrl, { ...base, ...params });
    const answer = await arcgisJson(net, url, ctx, PAGE_BUDGET);
    const items = geojson ? geoJsonPage(answer, url) : await esriPage(answer, url, layer, ctx, features.length);
    const first = (items[0]?.feature as { id?: unknown } | undefined)?.id;
    if (first !== undefined && firstIds.has(first)) {
      ctx.log(`${layer.name || layer.id}: the service repeats a page (it ignores resultOffset); stopping`);
      return { count: 0, more: false };
    }
    firstIds.add(first);
    const room = limit - features.length;
    append(features, items.slice(0, room));
    ctx.log(`${layer.name || layer.id}: ${items.length} features (${features.length} in all)`);
    const more = exceeded(answer) || items.length > room;
    if (more && features.length >= limit) tooMany();
    return { count: items.length, more };
  };
  if (layer.advancedQueryCapabilities?.supportsPagination) {
    const order = layer.objectIdField ? { orderByFields: layer.objectIdField } : {};
    for (;;) {
      const { count, more } = await page({ ...order, resultOffset: features.length, resultRecordCount: size });
      if (!more || count === 0 || features.length >= limit) break;
    }
    return features;
  }
  const { more } = await page({});
  if (!more || features.length >= limit) return features;
  // No pagination (ArcGIS Server before 10.3): the object ids, then the features by id in chunks.
  const ids = await arcgisJson(
    net,
    withParams(queryUrl, { ...address.keep, where: '1=1', returnIdsOnly: 'true', f: 'json' }),
    ctx,
  );
  const all = (Array.isArray(ids.objectIds) ? (ids.objectIds as number[]) : []).sort((a, b) => a - b);
  features.length = 0;
  firstIds.clear();
  for (let i = 0; i < all.length; i += size) {
    if (features.length >= limit) {
      tooMany();
      break;
    }
    await page({ where: undefined, objectIds: all.slice(i, i + size).join(',') });
    ctx.progress(Math.min(0.95, (i + size) / all.length));
  }
  return features;
}

/** exceededTransferLimit of a query answer (top level; in `properties` for GeoJSON). */
function exceeded(answer: Record<string, unknown>): boolean {
  const props = answer.properties as { exceededTransferLimit?: unknown } | undefined;
  return answer.exceededTransferLimit === true || props?.exceededTransferLimit === true;
}

/** The features of a GeoJSON query answer (always WGS 84). */
function geoJsonPage(answer: Record<string, unknown>, url: string): FrameItems {
  if (!Array.isArray(answer.features)) throw servicesFailure('arcgis_answer_invalid', { url });
  return (answer.features as unknown[]).map((feature) => ({ feature: feature as Record<string, unknown> }));
}

/** The features of an Esri JSON query answer as GeoJSON, reprojected when the service ignored outSR. */
async function esriPage(
  answer: Record<string, unknown>,
  url: string,
  layer: ArcgisLayer,
  ctx: FunctionRunContext,
  offset: number,
): Promise<FrameItems> {
  if (!Array.isArray(answer.features)) throw servicesFailure('arcgis_answer_invalid', { url });
  const idField = String(answer.objectIdFieldName ?? layer.objectIdField ?? '');
  const items = (answer.features as Array<{ attributes?: Record<string, unknown>; geometry?: unknown }>).map((f, i) => {
    const properties = f.attributes ?? {};
    const id = properties[idField];
    const geometry = esriToGeoJson(f.geometry, offset + i);
    return { feature: { type: 'Feature', ...(id !== undefined ? { id } : {}), geometry, properties } };
  });
  return reprojectItems(items, esriCrs(answer.spatialReference), { auto_transform: true, crs: '' }, ctx, offset);
}
