import { ApiError, parseRef, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { checkStyle } from '../common/style-validation';
import type { LayerStyle } from '../common/style-model';
import { depotDefinition, DEPOT_PATH } from './pile-store';
import { DATUM_PATH, styleOfDatum } from './layer-style-source';
import type { LayersServices } from './layers-services';

const bad = (key: string, field: string, params: Record<string, unknown> = {}) =>
  ApiError.badRequest('invalid_field', `layers:errors.${key}`, params, field);

/**
 * `POST {layer}save_style/` (decision 0068): writes `style` into a style depot through the
 * Magazine's DepotAccess — as a new version of the style datum `datum`, or as a new datum of the
 * style depot `depot` named `name` — so the depot's moments and permissions apply (the write goes
 * into its open moment; 403 without write access; 409 moment_moved / datum_changed with a stale
 * `moment_id` / `version`). With `link: true` the layer then links the datum (needs write access to
 * the layer, checked before anything is written). The caller must be able to read the layer.
 */
export async function saveStyle(
  services: LayersServices,
  r: ResourceRequest,
  row: Row,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const problem = checkStyle(body.style);
  if (problem || !body.style)
    throw ApiError.badRequest(
      'invalid_field',
      problem?.key ?? 'layers:errors.style_object',
      problem?.params ?? {},
      problem?.field ?? 'style',
    );
  const style = { rules: (body.style as LayerStyle).rules };
  if (body.name !== undefined && (typeof body.name !== 'string' || body.name.length > 200)) throw bad('style_name', 'name');
  if (body.link !== undefined && typeof body.link !== 'boolean') throw bad('style_bool', 'link');
  const momentId = body.moment_id === undefined || body.moment_id === null ? undefined : Number(body.moment_id);
  if (momentId !== undefined && !(Number.isInteger(momentId) && momentId > 0)) throw bad('style_moment', 'moment_id');
  if (body.version !== undefined && typeof body.version !== 'string') throw bad('style_version', 'version');
  const hasDatum = body.datum !== undefined && body.datum !== null && body.datum !== '';
  const hasDepot = body.depot !== undefined && body.depot !== null && body.depot !== '';
  if (hasDatum === hasDepot) throw bad('save_style_target', 'datum');

  const layerDef = r.services.definitions().find((d) => d.kind === 'layer')!;
  if (body.link && !(await r.services.mayWrite(layerDef, row, r))) {
    throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
  }
  const isStyle = (type: string) => services.types.isAssignable(type, 'style');
  // The datum's save and the layer's link are one write: a refused link keeps no new style version.
  const out = await r.services.inTransaction(r, 'layer', async (tr) => {
    let saved: { depot_id: number; moment_id: number; datum: string };
    if (hasDatum) {
      const datumId = parseRef(body.datum as string, DATUM_PATH);
      if (datumId === undefined) throw bad('style_datum', 'datum');
      const current = await services.depots.datumIn(tr, `${DATUM_PATH}${datumId}/`);
      if (!isStyle(current.content_type)) throw bad('style_datum', 'datum');
      const name = typeof body.name === 'string' ? body.name : (styleOfDatum(current.fields)?.name ?? '');
      saved = await services.depots.saveDatum(
        tr.user,
        { datum: `${DATUM_PATH}${datumId}/` },
        { value: { name, ...style } },
        { momentId, version: body.version as string | undefined, lang: tr.lang, manager: tr.manager },
      );
    } else {
      const depotId = parseRef(body.depot as string, DEPOT_PATH);
      if (depotId === undefined) throw bad('style_depot', 'depot');
      const depot = await tr.services.loadReadable(depotDefinition(tr), depotId, tr);
      if (!depot) throw ApiError.notFound();
      if (!isStyle(String(depot.content_type))) throw bad('style_depot', 'depot');
      const name = typeof body.name === 'string' && body.name.trim() ? body.name.trim() : String(row.name);
      saved = await services.depots.saveDatum(
        tr.user,
        { depot: depotId },
        { value: { name, ...style } },
        { momentId, lang: tr.lang, manager: tr.manager },
      );
    }
    const reply: Record<string, unknown> = {
      datum: saved.datum,
      depot: `${DEPOT_PATH}${saved.depot_id}/`,
      moment_id: saved.moment_id,
    };
    if (body.link) reply.layer = await tr.services.update(layerDef, row.id, { style_datum: saved.datum }, tr);
    return reply;
  });
  // The style depot's feed entries were written in the layer's transaction; tell their listeners too.
  await r.services.inTransaction(r, 'depot', async () => undefined);
  return out;
}
