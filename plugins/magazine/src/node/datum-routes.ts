import { Readable } from 'node:stream';
import {
  ApiError,
  injectable,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type WerkbankContext,
  inject,
  optional,
} from '@werkbank/sdk/node';
import { bboxOf, callerOf, pageOf, writeIn } from './magazine-routes';
import { basedOnMoment, depotFor, idParam } from './depot-access';
import { layersUnavailable } from './depot-resource';
import { datumJson, isFileType } from './datum-codec';
import { checkVersion, currentVersion, datumDepot, removeVersion, snapshotPage, versionAt } from './datum-store';
import {
  countWrite,
  headMoment,
  latestApprovedMoment,
  loadMoment,
  openMomentFor,
  type MomentRow,
  momentJson,
} from './moment-store';
import { snapshotBatches } from './snapshot-stream';
import { geojsonChunks, ndjsonChunks } from './snapshot-writers';
import { datumOpenApi } from './magazine-openapi';
import { createDatums, patchDatum, recordDepotEvent } from './datum-write';
import { MagazineServices } from './magazine-services';
import { DepotLayers } from '../common/magazine-api';
import { boxExtentOf } from '../common/datum-extent';

/** At most this many datums in one create call. */
export const MAX_BATCH = 1000;

/** `{index}` or `{index}@{moment}` from a datum address segment; 404 when malformed. */
export function parseDatumRef(raw: string): { datumId: number; momentId?: number } {
  const m = /^(\d{1,9})(?:@(\d{1,9}))?$/.exec(raw);
  if (!m) throw ApiError.notFound();
  return { datumId: Number(m[1]), momentId: m[2] ? Number(m[2]) : undefined };
}

/**
 * Datums (spec 000 §7 "Datum and switchboard creation", spec 001 §7): reading any moment as a
 * snapshot, and writes into the open moment guarded by moment_id and version (decision 0011).
 */
@injectable()
export class DatumRoutes implements HttpRouteContribution {
  @inject(MagazineServices) protected readonly services!: MagazineServices;
  /** Bound by the plugin that owns layers; the layer calls answer 501 without it. */
  @inject(DepotLayers) @optional() protected readonly layers?: DepotLayers;

  private req(ctx: WerkbankContext): ResourceRequest {
    return callerOf(ctx, this.services);
  }

  private async snapshot(ctx: WerkbankContext, r: ResourceRequest, depotId: number, moment: MomentRow | undefined) {
    const depot = await depotFor(r, depotId, 'read');
    const type = String(depot.content_type);
    const p = pageOf(ctx.query);
    const rawAfter = typeof ctx.query.after === 'string' ? ctx.query.after : '';
    if (rawAfter && !/^\d{1,9}$/.test(rawAfter)) {
      throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name: 'after' }, 'after');
    }
    const after = rawAfter ? Number(rawAfter) : undefined;
    const window = bboxOf(ctx.query);
    if (!moment)
      return { objects: [], meta: { offset: p.offset, limit: p.limit, total_count: 0, next_after: null }, moment: null };
    const { rows, total } = await snapshotPage(r.manager, depotId, moment.id, { ...p, after, window });
    return {
      objects: rows.map((v) => datumJson(v, moment.id, type, this.services)),
      meta: {
        offset: after !== undefined ? 0 : p.offset,
        limit: p.limit,
        total_count: total ?? moment.size,
        // Pass as ?after= for the next page; null on the last one.
        next_after: rows.length === p.limit ? rows[rows.length - 1].datum_id : null,
      },
      moment: momentJson(moment),
    };
  }

  /**
   * The moment `?moment=` names: one of the depot's moments by id, `approved` for its newest
   * approved one (409 no_approved_moment without), or its head when absent.
   */
  private async momentOf(ctx: WerkbankContext, r: ResourceRequest, depotId: number): Promise<MomentRow | undefined> {
    const raw = typeof ctx.query.moment === 'string' ? ctx.query.moment : '';
    if (raw === 'approved') {
      const approved = await latestApprovedMoment(r.manager, depotId);
      if (!approved) {
        const depot = await depotFor(r, depotId, 'read');
        throw new ApiError(409, 'no_approved_moment', 'magazine:errors.no_approved_moment', { depot: depot.name });
      }
      return approved;
    }
    if (!raw) return headMoment(r.manager, depotId);
    const moment = await loadMoment(r.manager, idParam(raw));
    if (!moment || moment.depot_id !== depotId) throw ApiError.notFound();
    return moment;
  }

  /** The depot's datums at `?moment=` (one of its moments) or at its head, as by-depot replies. */
  private async depotSnapshot(ctx: WerkbankContext, r: ResourceRequest, depotId: number) {
    return this.snapshot(ctx, r, depotId, await this.momentOf(ctx, r, depotId));
  }

  /**
   * The whole snapshot as a stream (issue 15 item 3): `?format=geojson` (a FeatureCollection, for
   * depots of features; the default there) or `ndjson` (one datum per line as list pages give
   * it; the default otherwise), optionally only datums in `?bbox=`. Written as the rows arrive.
   */
  private async stream(ctx: WerkbankContext, r: ResourceRequest, depotId: number, moment: MomentRow | undefined) {
    const depot = await depotFor(r, depotId, 'read');
    const type = String(depot.content_type);
    const features = this.services.types.isAssignable(type, 'feature');
    const raw = typeof ctx.query.format === 'string' ? ctx.query.format : '';
    const format = raw || (features ? 'geojson' : 'ndjson');
    if (format !== 'geojson' && format !== 'ndjson') {
      throw ApiError.badRequest('invalid_parameter', 'magazine:errors.format_param', {}, 'format');
    }
    if (format === 'geojson' && !features) {
      throw ApiError.badRequest('invalid_parameter', 'magazine:errors.geojson_not_features', {}, 'format');
    }
    const window = bboxOf(ctx.query);
    async function* none() {}
    // GeoJSON needs only the fields; NDJSON gives each datum as list pages do (version, text, …).
    const batches = moment ? snapshotBatches(this.services, depotId, moment.id, { window, lean: format === 'geojson' }) : none();
    const momentId = moment?.id ?? 0;
    const chunks =
      format === 'geojson' ? geojsonChunks(batches) : ndjsonChunks(batches, (v) => datumJson(v, momentId, type, this.services));
    ctx.set('Content-Type', format === 'geojson' ? 'application/geo+json; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    if (moment) ctx.set('X-Werkbank-Moment', String(moment.id));
    ctx.body = Readable.from(chunks);
  }

  /** The datum as it was at the addressed moment (the head without one), for a reader of its depot. */
  private async read(r: ResourceRequest, ref: { datumId: number; momentId?: number }) {
    const depotId = await datumDepot(r.manager, ref.datumId);
    if (depotId === undefined) throw ApiError.notFound();
    const depot = await depotFor(r, depotId, 'read');
    const momentId = ref.momentId ?? (await headMoment(r.manager, depotId))?.id;
    const moment = momentId !== undefined ? await loadMoment(r.manager, momentId) : undefined;
    if (!moment || moment.depot_id !== depotId) throw ApiError.notFound();
    const version = await versionAt(r.manager, ref.datumId, moment.id);
    if (!version) throw ApiError.notFound();
    return { version, momentId: moment.id, type: String(depot.content_type) };
  }

  /**
   * The fields of a new datum in a depot the caller may read (spec 000 §7 create-in-depot and
   * create-in-pile): the type's template, or with `?template=` the fields of a datum the caller may
   * read whose type fits the depot (decision 0064); `moment_id` is `?moment_id=` (one of the depot's
   * moments, which the write is then based on) or the head.
   */
  private async newDatum(ctx: WerkbankContext, r: ResourceRequest, depotId: number): Promise<Record<string, unknown>> {
    const depot = await depotFor(r, depotId, 'read');
    const type = String(depot.content_type);
    const rawMoment = typeof ctx.query.moment_id === 'string' ? ctx.query.moment_id : '';
    let momentId: number | null;
    if (rawMoment) {
      if (!/^\d{1,9}$/.test(rawMoment))
        throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name: 'moment_id' }, 'moment_id');
      const moment = await loadMoment(r.manager, Number(rawMoment));
      if (!moment || moment.depot_id !== depotId)
        throw new ApiError(404, 'unknown_moment', 'magazine:errors.unknown_moment', { moment: rawMoment }, 'moment_id');
      momentId = moment.id;
    } else momentId = (await headMoment(r.manager, depotId))?.id ?? null;
    let fields: Record<string, unknown> = this.services.datumTypes.template(type);
    const rawTemplate = typeof ctx.query.template === 'string' ? ctx.query.template.trim() : '';
    if (rawTemplate) {
      const m = /^(?:\/api\/v1\/datum\/)?(\d{1,9}(?:@\d{1,9})?)\/?$/.exec(rawTemplate);
      if (!m) throw ApiError.badRequest('invalid_parameter', 'magazine:errors.template_param', {}, 'template');
      let source: Awaited<ReturnType<DatumRoutes['read']>>;
      try {
        source = await this.read(r, parseDatumRef(m[1]));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404)
          throw new ApiError(404, 'unknown_template', 'magazine:errors.unknown_template', { template: rawTemplate }, 'template');
        throw e;
      }
      if (!this.services.types.isAssignable(source.type, type))
        throw ApiError.badRequest(
          'template_type',
          'magazine:errors.template_type',
          { template: rawTemplate, template_type: source.type, type },
          'template',
        );
      fields = { ...source.version.data };
    }
    return {
      ...fields,
      content_type: `/api/v1/type/${type}/`,
      depot: `/api/v1/depot/${depotId}/`,
      moment_id: momentId,
      creatable: !isFileType(this.services, type),
    };
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'magazine.datum-routes',
      realms: ['depot'],
      openapi: datumOpenApi,
      mount: (router) => {
        router.get('/api/v1/datum/by-depot/:depot/', async (ctx) => {
          const r = this.req(ctx);
          const depotId = idParam(ctx.params.depot);
          await depotFor(r, depotId, 'read');
          ctx.body = await this.depotSnapshot(ctx, r, depotId);
        });
        router.get('/api/v1/datum/by-depot/:depot/stream/', async (ctx) => {
          const r = this.req(ctx);
          const depotId = idParam(ctx.params.depot);
          await depotFor(r, depotId, 'read');
          await this.stream(ctx, r, depotId, await this.momentOf(ctx, r, depotId));
        });
        router.get('/api/v1/datum/by-moment/:moment/stream/', async (ctx) => {
          const r = this.req(ctx);
          const moment = await loadMoment(r.manager, idParam(ctx.params.moment));
          if (!moment) throw ApiError.notFound();
          await this.stream(ctx, r, moment.depot_id, moment);
        });
        router.get('/api/v1/datum/by-moment/:moment/', async (ctx) => {
          const r = this.req(ctx);
          const moment = await loadMoment(r.manager, idParam(ctx.params.moment));
          if (!moment) throw ApiError.notFound();
          ctx.body = await this.snapshot(ctx, r, moment.depot_id, moment);
        });
        // The datums of a layer's pile: its depot's, for a caller who may read the layer and the depot.
        router.get('/api/v1/datum/by-pile/:pile/', async (ctx) => {
          const r = this.req(ctx);
          if (!this.layers) throw layersUnavailable();
          const depotId = await this.layers.pileDepot(r, idParam(ctx.params.pile));
          await depotFor(r, depotId, 'read');
          ctx.body = await this.depotSnapshot(ctx, r, depotId);
        });
        router.get('/api/v1/datum/:ref/edit_as_layer/', async (ctx) => {
          const ref = parseDatumRef(ctx.params.ref);
          ctx.body = await this.services.resources.inTransaction(this.req(ctx), 'layer', async (r) => {
            const { version, momentId, type } = await this.read(r, ref);
            const depotId = (await datumDepot(r.manager, ref.datumId))!;
            const depot = await depotFor(r, depotId, 'read');
            if (!this.layers) throw layersUnavailable();
            return this.layers.asLayer(
              r,
              {
                depot_id: depotId,
                depot_name: String(depot.name),
                content_type: type,
                moment_id: momentId,
                datum_id: ref.datumId,
                datum: version.data,
              },
              'edit',
            );
          });
        });
        router.get('/api/v1/datum/create-in-depot/:depot/', async (ctx) => {
          const r = this.req(ctx);
          ctx.body = await this.newDatum(ctx, r, idParam(ctx.params.depot));
        });
        // spec 000 §7: create-in-pile is create-in-depot for the depot of a layer's pile (readers of the layer and the depot).
        router.get('/api/v1/datum/create-in-pile/:pile/', async (ctx) => {
          const r = this.req(ctx);
          if (!/^\d{1,9}$/.test(ctx.params.pile)) throw ApiError.notFound();
          if (!this.layers) throw layersUnavailable();
          const pileId = Number(ctx.params.pile);
          const depotId = await this.layers.pileDepot(r, pileId);
          ctx.body = { ...(await this.newDatum(ctx, r, depotId)), pile: `/api/v1/pile/${pileId}/` };
        });
        router.post('/api/v1/datum/create-in-depot/:depot/', async (ctx) => {
          this.req(ctx);
          const depotId = idParam(ctx.params.depot);
          const body = await this.services.bodies.json(ctx);
          ctx.body = await writeIn(ctx, this.services, async (r) => {
            const batch = Array.isArray(body.objects);
            const items = (batch ? body.objects : [body]) as unknown[];
            if (items.length > MAX_BATCH || items.some((i) => !i || typeof i !== 'object' || Array.isArray(i))) {
              throw ApiError.badRequest('invalid_field', 'magazine:errors.batch', { max: MAX_BATCH }, 'objects');
            }
            const { objects, moment_id, moment_size } = await createDatums(
              r,
              this.services,
              depotId,
              items as Record<string, unknown>[],
              basedOnMoment(ctx.query, body),
              batch ? (i, field) => `objects[${i}].${field}` : undefined,
            );
            return batch ? { objects, moment_id, moment_size } : { ...objects[0], moment_id, moment_size };
          });
          ctx.status = 201;
        });
        for (const [name, disposition] of [
          ['download', 'attachment'],
          ['embed', 'inline'],
        ] as const) {
          router.get(`/api/v1/datum/:ref/${name}/`, async (ctx) => {
            const r = this.req(ctx);
            const { version } = await this.read(r, parseDatumRef(ctx.params.ref));
            if (!version.blob) throw ApiError.notFound();
            const filename =
              String(version.data.value ?? 'file')
                .split('/')
                .pop() || 'file';
            await this.services.downloads.send(ctx, version.blob, {
              size: Number(version.data.size ?? 0),
              mime: String(version.data.mime_type ?? 'application/octet-stream'),
              filename,
              disposition,
            });
          });
        }
        router.get('/api/v1/datum/:ref/', async (ctx) => {
          const r = this.req(ctx);
          const { version, momentId, type } = await this.read(r, parseDatumRef(ctx.params.ref));
          ctx.body = datumJson(version, momentId, type, this.services);
        });
        router.patch('/api/v1/datum/:ref/', async (ctx) => {
          this.req(ctx);
          const ref = parseDatumRef(ctx.params.ref);
          const body = await this.services.bodies.json(ctx);
          ctx.body = await writeIn(ctx, this.services, async (r) => {
            const { object, moment_id, moment_size } = await patchDatum(
              r,
              this.services,
              ref.datumId,
              body,
              basedOnMoment(ctx.query, body) ?? ref.momentId,
            );
            return { ...object, moment_id, moment_size };
          });
        });
        router.delete('/api/v1/datum/:ref/', async (ctx) => {
          const ref = parseDatumRef(ctx.params.ref);
          ctx.body = await writeIn(ctx, this.services, async (r) => {
            const depotId = await datumDepot(r.manager, ref.datumId);
            if (depotId === undefined) throw ApiError.notFound();
            await depotFor(r, depotId, 'write');
            const moment = await openMomentFor(
              r.manager,
              depotId,
              r.user.id,
              basedOnMoment(ctx.query, {}) ?? ref.momentId,
              'edit',
            );
            const current = await currentVersion(r.manager, ref.datumId);
            if (!current) throw new ApiError(409, 'datum_deleted', 'magazine:errors.datum_deleted', { datum: ref.datumId });
            checkVersion(current, ctx.query.version);
            const bytesDelta = await removeVersion(r.manager, current, moment.id);
            const size = await countWrite(r.manager, moment.id, -1, bytesDelta, {
              added: null,
              removed: boxExtentOf(current.extent),
            });
            await recordDepotEvent(r, depotId, 'datum_delete', moment.id);
            return { status: 'ok', moment_id: moment.id, moment_size: size };
          });
        });
      },
    });
  }
}
