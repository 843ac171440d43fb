import {
  ApiError,
  guard,
  requestOf,
  type ResourceDefinition,
  type ResourceRequest,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import {
  cleanMetadata,
  METADATA_ATTRIBUTE_TYPE_PATH,
  METADATA_KINDS,
  METADATA_PATH,
  typedOf,
  withTyped,
  type Metadata,
  type MetadataObject,
} from '../common/metadata';
import { depotIsoXml } from './depot-iso';
import type { LayersServices } from './layers-services';

type Router = Parameters<RouteDescriptor['mount']>[0];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `/api/v2/metadata/` (spec 002 §2, decision 0063): the typed metadata of layers and depots as
 * one resource. `GET {METADATA_PATH}{kind}/{id}/` (or `?resource={address}`) reads, `PUT`/`PATCH`
 * with `{values: [{attributetype, value}]}` replaces the values. Everything goes through the
 * object's own kind in the shared resource layer: its read permission to read, its write
 * permission (and hooks, revision, feed) to write — the layers plugin never touches another
 * plugin's tables. Gated by the `metadata` component; an API key needs the object's realm.
 */
export function mountMetadataRoutes(router: Router, services: LayersServices): void {
  /** The object's kind after the caller and the component are checked. */
  const target = (
    ctx: WerkbankContext,
    kind: string,
    rawId: string,
  ): { r: ResourceRequest; def: ResourceDefinition; id: number } => {
    if (!ctx.state.user) throw ApiError.unauthorized();
    const def = services.resources.definitions().find((d) => d.kind === kind);
    if (!def || !(METADATA_KINDS as readonly string[]).includes(kind) || !/^\d{1,9}$/.test(rawId)) throw ApiError.notFound();
    guard(ctx, services.gate, 'metadata', def.realm ?? def.kind);
    return { r: requestOf(ctx, services), def, id: Number(rawId) };
  };

  const read = async (r: ResourceRequest, def: ResourceDefinition, id: number): Promise<MetadataObject> => {
    const row = await r.services.loadReadable(def, id, r);
    if (!row) throw ApiError.notFound();
    const [obj] = await r.services.serialize(def, [row], r);
    const address = String(obj.resource_uri);
    return {
      resource_uri: `${METADATA_PATH}${def.kind}/${id}/`,
      resource: address,
      kind: def.kind,
      name: String(obj.name ?? ''),
      values: typedOf(obj.metadata)?.values ?? [],
      access: (await r.services.mayWrite(def, row, r)) ? ['read', 'write'] : ['read'],
      download: `${address}download.xml`,
    };
  };

  router.get(METADATA_PATH, async (ctx) => {
    if (!ctx.state.user) throw ApiError.unauthorized();
    const resource = typeof ctx.query.resource === 'string' ? ctx.query.resource : '';
    const found = services.resources.resolveAddress(resource);
    if (!found || !(METADATA_KINDS as readonly string[]).includes(found.def.kind))
      throw ApiError.badRequest('invalid_parameter', 'layers:metadata.errors.resource', {}, 'resource');
    const { r, def, id } = target(ctx, found.def.kind, String(found.id));
    ctx.body = await read(r, def, id);
  });

  router.get(`${METADATA_PATH}:kind/:id/`, async (ctx) => {
    const { r, def, id } = target(ctx, ctx.params.kind, ctx.params.id);
    ctx.body = await read(r, def, id);
  });

  const write = async (ctx: WerkbankContext) => {
    const { r, def, id } = target(ctx, ctx.params.kind, ctx.params.id);
    const body = await services.bodies.json(ctx);
    const typed = await checkValues(r, body.values);
    ctx.body = await services.resources.inTransaction(r, def.kind, async (tr) => {
      const row = await tr.services.loadReadable(def, id, tr);
      if (!row) throw ApiError.notFound();
      const [obj] = await tr.services.serialize(def, [row], tr);
      // The object's own update: its write permission, hooks, revision and feed entry.
      await tr.services.update(def, id, { metadata: withTyped(obj.metadata, typed) }, tr);
      return read(tr, def, id);
    });
  };
  router.put(`${METADATA_PATH}:kind/:id/`, write);
  router.patch(`${METADATA_PATH}:kind/:id/`, write);

  // spec 001 §2.2: the metadata export is the object's address plus download.xml (layers: layer-routes.ts).
  router.get('/api/v1/depot/:id/download.xml', async (ctx) => {
    const { r, def, id } = target(ctx, 'depot', ctx.params.id);
    const row = await r.services.loadReadable(def, id, r);
    if (!row) throw ApiError.notFound();
    const [depot] = await r.services.serialize(def, [row], r);
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="depot-${id}.xml"`);
    ctx.body = await depotIsoXml(r, depot, `${ctx.protocol}://${ctx.host}`);
  });
}

/**
 * The values of a write: a list of `{attributetype, value}` naming existing attribute types, dates
 * as yyyy-mm-dd; empty values are dropped, none left is null (spec 001 §5.1). 400 naming the entry.
 */
async function checkValues(r: ResourceRequest, values: unknown): Promise<Metadata | null> {
  const typed = Array.isArray(values) ? cleanMetadata({ values }) : undefined;
  if (typed === undefined) throw ApiError.badRequest('invalid_field', 'layers:metadata.errors.shape', {}, 'values');
  if (!typed) return null;
  const ids = typed.values.map((v) => /^\/api\/v1\/metadataattributetype\/(\d{1,9})\/$/.exec(v.attributetype)?.[1]);
  const rows = (await r.manager.query(`SELECT id, datatype FROM layers_metadataattributetype WHERE id = ANY($1)`, [
    ids.filter((x): x is string => !!x).map(Number),
  ])) as Array<{ id: number; datatype: string }>;
  const types = new Map(rows.map((t) => [`${METADATA_ATTRIBUTE_TYPE_PATH}${t.id}/`, t.datatype]));
  for (const v of typed.values) {
    const i = (values as Array<{ attributetype?: unknown }>).findIndex((e) => e?.attributetype === v.attributetype);
    const datatype = types.get(v.attributetype);
    if (!datatype)
      throw ApiError.badRequest(
        'invalid_field',
        'layers:metadata.errors.unknown_type',
        { type: v.attributetype },
        `values[${i}].attributetype`,
      );
    if (datatype === 'date' && !DATE.test(v.value))
      throw ApiError.badRequest('invalid_field', 'layers:metadata.errors.date', {}, `values[${i}].value`);
  }
  return typed;
}
