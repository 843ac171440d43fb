import { ApiError, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import type { DepotAccess } from '@werkbank/plugin-magazine/api';
import type { EffectiveLayerStyle } from '../common/layers-api';
import { defaultStyle, type LayerStyle } from '../common/style-model';
import { asStyle, checkStyle } from '../common/style-validation';

export const DATUM_PATH = '/api/v1/datum/';

const parsed = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** The style a style datum's fields hold (`{value: {name?, rules}}`), or undefined when they hold none that is valid. */
export function styleOfDatum(fields: Record<string, unknown>): { style: LayerStyle; name: string } | undefined {
  const value = fields.value as { name?: unknown; rules?: unknown } | undefined;
  if (!value || typeof value !== 'object' || checkStyle({ rules: value.rules })) return undefined;
  return { style: { rules: asStyle({ rules: value.rules })!.rules }, name: typeof value.name === 'string' ? value.name : '' };
}

/**
 * Checks a style datum a layer is to link (decision 0068) as the caller, inside the write's
 * transaction: it must exist, be readable by the caller, sit in a depot of type style (or one
 * deriving from it) and hold a valid style. 400 invalid_field `style_datum` otherwise.
 */
export async function checkStyleDatum(
  depots: DepotAccess,
  isAssignable: (type: string, to: string) => boolean,
  req: ResourceRequest,
  datumId: number,
): Promise<void> {
  const refuse = () => ApiError.badRequest('invalid_field', 'layers:errors.style_datum', {}, 'style_datum');
  const datum = await depots.datumIn(req, `${DATUM_PATH}${datumId}/`).catch((e: unknown) => {
    if (e instanceof ApiError && (e.status === 404 || e.status === 403)) throw refuse();
    throw e;
  });
  if (!isAssignable(datum.content_type, 'style')) throw refuse();
  if (!styleOfDatum(datum.fields))
    throw ApiError.badRequest('invalid_field', 'layers:errors.style_datum_invalid', {}, 'style_datum');
}

/** A missing or unreadable version (404/403) or a depot without an approved moment (409). */
const unavailable = (e: unknown) =>
  e instanceof ApiError && (e.status === 404 || e.status === 403 || (e.status === 409 && e.code === 'no_approved_moment'));

/**
 * The style a layer is drawn with (decision 0068), read as the caller of `req`: the linked style
 * datum's version at its depot's latest approved moment — the head's when the depot has no approved
 * moment or the datum is younger than it — else the layer's own style, else the default style. A
 * link the caller cannot read, or whose datum holds no valid style, falls back to the layer's own
 * style and says so in `fallback`.
 */
export async function effectiveStyleOf(depots: DepotAccess, req: ResourceRequest, row: Row): Promise<EffectiveLayerStyle> {
  const own = asStyle(parsed(row.style));
  const datumId = row.style_datum_id === null || row.style_datum_id === undefined ? undefined : Number(row.style_datum_id);
  const base = (fallback?: EffectiveLayerStyle['fallback']): EffectiveLayerStyle => ({
    style: own?.rules.length ? own : defaultStyle(),
    source: own?.rules.length ? 'layer' : 'default',
    datum: datumId !== undefined ? `${DATUM_PATH}${datumId}/` : null,
    depot: null,
    moment_id: null,
    approved: false,
    ...(fallback ? { fallback } : {}),
  });
  if (datumId === undefined) return base();
  const address = `${DATUM_PATH}${datumId}/`;
  let approved = true;
  let datum: Awaited<ReturnType<DepotAccess['datumIn']>> | undefined;
  try {
    datum = await depots.datumIn(req, address, { approved: true });
  } catch (e) {
    if (!unavailable(e)) throw e;
    approved = false;
    datum = await depots.datumIn(req, address).catch((e2: unknown) => {
      if (unavailable(e2)) return undefined;
      throw e2;
    });
  }
  if (!datum) return base('unreadable');
  const found = styleOfDatum(datum.fields);
  if (!found) return base('invalid');
  return {
    style: found.style.rules.length ? found.style : defaultStyle(),
    source: 'datum',
    datum: address,
    depot: `/api/v1/depot/${datum.depot_id}/`,
    moment_id: datum.moment_id,
    approved,
    name: found.name,
  };
}
