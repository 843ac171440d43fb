/** Parts of a WMS request outside the endpoint: its errors as OGC exceptions, and the viewer's attribute filters (decision 0091). */
import { ApiError, type WerkbankContext } from '@werkbank/sdk/node';
import { parseAttributeFilterParam, ATTRIBUTE_FILTER_PARAM, type AttributeFilter } from '@werkbank/plugin-layers/api';
import {
  bgcolor,
  exceptionMode,
  imageFormat,
  required,
  transparent,
  wmsSize,
  WmsProblem,
  type WmsVersion,
} from '../../common/wms-params';
import type { Publication } from '../published-layers';
import { styleAttributes } from './packed-features';
import type { MapView } from './wms-endpoint';

/** An error as an OGC exception: WMS problems and ApiErrors (unknown layer, access, time limit) in the caller's language. */
export function problemOf(ctx: WerkbankContext, e: unknown): { status: number; code?: string; locator?: string; text: string } {
  const t = (key: string, params: Record<string, unknown>) => {
    const [ns, k] = key.includes(':') ? key.split(':', 2) : ['server', key];
    return String(ctx.state.t(k, { ns, ...params }));
  };
  if (e instanceof WmsProblem)
    return { status: e.status, code: e.code, locator: e.locator, text: t(`services:wms.errors.${e.key}`, e.params) };
  if (e instanceof ApiError) {
    const code =
      e.status === 404
        ? 'LayerNotDefined'
        : e.field === 'moment'
          ? 'InvalidParameterValue'
          : e.status === 400
            ? 'InvalidParameterValue'
            : undefined;
    return { status: e.status, code, locator: e.field, text: t(e.key, e.params) };
  }
  throw e;
}

/**
 * How a GetMap reports its errors: in an image (EXCEPTIONS=INIMAGE or BLANK) when the size and
 * format it asks for are valid, else as XML.
 */
export function imageExceptions(p: Map<string, string>, version: WmsVersion, maxSize: number) {
  const mode = exceptionMode(p);
  if (mode === 'xml') return undefined;
  try {
    const view: MapView = {
      crs: 'CRS:84',
      bbox: [0, 0, 1, 1],
      width: wmsSize(p, 'width', maxSize),
      height: wmsSize(p, 'height', maxSize),
    };
    return { mode, view, format: imageFormat(p.get('format')), transparent: transparent(p), bg: bgcolor(p), version };
  } catch {
    return undefined;
  }
}

/** The properties packed for drawing: those the style reads, and those the layer offers filters on. */
export function packedAttributes(publication: Publication): string[] {
  const keys = (publication.layer.attribute_filters ?? []).map((f) => f.attribute_key);
  return [...new Set([...styleAttributes(publication.style.style), ...keys])];
}

/**
 * The attribute filters a visitor set in the viewer (`wb_filter`, decision 0091), checked against
 * the layer's own; 400 InvalidParameterValue otherwise.
 */
export function attributeFilters(p: Map<string, string>, publication: Publication): AttributeFilter[] {
  const raw = p.get(ATTRIBUTE_FILTER_PARAM);
  if (!raw) return [];
  const parsed = parseAttributeFilterParam(raw, publication.layer.attribute_filters ?? []);
  if ('problem' in parsed) throw ApiError.badRequest('invalid_parameter', parsed.problem.key, {}, ATTRIBUTE_FILTER_PARAM);
  return parsed.filters;
}

/** Every name in LAYERS (or QUERY_LAYERS) must be the layer's: its short name, its id, or the name in the address. */
export function checkLayers(p: Map<string, string>, name: string, publication: Publication, requested: string): void {
  const own = new Set([publication.layer.slug, String(publication.layer.id), requested]);
  for (const layer of required(p, name).split(','))
    if (!own.has(layer.trim())) throw new WmsProblem('LayerNotDefined', 'layer', { layer: layer.slice(0, 80) }, name);
}
