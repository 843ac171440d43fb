import {
  ApiError,
  inject,
  injectable,
  type FrameItems,
  type KeyOrder,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type Row,
} from '@werkbank/sdk/node';
import { itemFeatures, itemImagery, SWITCHBOARD_MAP_LIMIT, type MapItemKind, type SwitchboardMap } from '@werkbank/sdk';
import { definitionOf, FRAME_PATH, idParam, SWITCHBOARD_PATH, switchboardFor } from './switchboard-access';
import { validateItems } from './frame-write';
import { loadContents, orderedItems } from './frame-content';
import { inSwitchboardTransaction, switchboardCaller } from './route-caller';
import { frameContentOpenApi } from './switchboard-openapi';
import { SwitchboardsServices } from './switchboards-services';

/** A frame's items, paged, and datums created in a frame (spec 000 §7 create-in-frame). */
@injectable()
export class FrameContentRoutes implements HttpRouteContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;

  /** The frame if the caller may read its switchboard (404) and has `need` on it (403). */
  private async frameRow(r: ResourceRequest, raw: string, need: 'read' | 'write'): Promise<Row> {
    const [frame] = (await r.manager.query(`SELECT * FROM switchboard_frame WHERE id = $1`, [idParam(raw)])) as Row[];
    if (!frame) throw ApiError.notFound();
    await switchboardFor(r, frame.switchboard_id as number, need);
    return frame;
  }

  /** The map kind of a frame type, or undefined when the map cannot draw its items. */
  private mapKind(type: string): MapItemKind | undefined {
    if (this.services.types.isAssignable(type, 'feature')) return 'feature';
    if (this.services.types.isAssignable(type, 'bbox')) return 'bbox';
    if (this.services.types.isAssignable(type, 'wms')) return 'wms';
    if (this.services.types.isAssignable(type, 'wmts')) return 'wmts';
    return undefined;
  }

  private async map(r: ResourceRequest, id: number): Promise<SwitchboardMap> {
    const sb = await switchboardFor(r, id, 'read');
    const writable = await r.services.mayAccess(definitionOf(r, 'switchboard'), sb, r, 'write');
    const frames = (
      (await r.manager.query(
        `SELECT id, name, content_type, content_edit, content_hash, size FROM switchboard_frame
          WHERE switchboard_id = $1 AND content_visible ORDER BY id`,
        [id],
      )) as Row[]
    ).filter((f) => this.mapKind(String(f.content_type)));
    const contents = await loadContents(
      r.manager,
      frames.map((f) => (f.content_hash ? String(f.content_hash).trim() : '')),
    );
    return {
      id,
      name: String(sb.name ?? ''),
      base_map_tile_url: this.services.config.baseMapTileUrl ?? null,
      frames: frames.map((f) => {
        const kind = this.mapKind(String(f.content_type))!;
        const hash = f.content_hash ? String(f.content_hash).trim() : null;
        const items = (hash && contents.get(hash)) || [];
        return {
          uri: `${FRAME_PATH}${f.id}/`,
          id: f.id as number,
          name: String(f.name ?? ''),
          type_name: String(f.content_type),
          // Drawing makes features: bbox frames are shown, not edited in the map.
          edit: writable && !!f.content_edit && kind === 'feature',
          content_hash: hash,
          total: items.length,
          truncated: items.length > SWITCHBOARD_MAP_LIMIT,
          features: itemFeatures(kind, items.slice(0, SWITCHBOARD_MAP_LIMIT)),
          imagery: itemImagery(kind, items),
        };
      }),
    };
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'switchboards.frame-content-routes',
      realms: ['switchboard'],
      openapi: frameContentOpenApi,
      mount: (router) => {
        // A frame's items, paged.
        router.get(`${FRAME_PATH}:id/content/`, async (ctx) => {
          const r = switchboardCaller(ctx, this.services);
          const frame = await this.frameRow(r, ctx.params.id, 'read');
          const int = (name: string, fallback: number, max: number) => {
            const raw = ctx.query[name];
            if (raw === undefined || raw === '') return fallback;
            if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw))
              throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name }, name);
            return Math.min(Number(raw), max);
          };
          const offset = int('offset', 0, Number.MAX_SAFE_INTEGER);
          const limit = Math.max(1, int('limit', 100, 1000));
          const hash = frame.content_hash ? String(frame.content_hash).trim() : null;
          const rows = hash
            ? ((await r.manager.query(
                `SELECT coalesce((SELECT jsonb_agg(e ORDER BY i) FROM jsonb_array_elements(items) WITH ORDINALITY AS t(e, i)
                                   WHERE i > $2 AND i <= $2 + $3), '[]'::jsonb) AS page, key_order
                   FROM switchboard_content WHERE hash = $1`,
                [hash, offset, limit],
              )) as { page: FrameItems | null; key_order: KeyOrder | null }[])
            : [];
          ctx.body = {
            objects: orderedItems(rows[0]?.page ?? [], rows[0]?.key_order),
            meta: { offset, limit, total_count: frame.size },
            content_type: `/api/v1/type/${String(frame.content_type)}/`,
            content_hash: hash,
          };
        });
        // The preview's map (decision 0090): the frames visible on the map with their first items as features.
        router.get(`${SWITCHBOARD_PATH}:id/map/`, async (ctx) => {
          const r = switchboardCaller(ctx, this.services);
          ctx.body = await this.map(r, idParam(ctx.params.id));
        });
        // spec 000 §7: GET create-in-frame gives a template; POST appends datums to the frame.
        router.get('/api/v1/datum/create-in-frame/:id/', async (ctx) => {
          const r = switchboardCaller(ctx, this.services);
          const frame = await this.frameRow(r, ctx.params.id, 'read');
          const type = String(frame.content_type);
          ctx.body = {
            ...this.services.datumTypes.template(type),
            content_type: `/api/v1/type/${type}/`,
            frame: `${FRAME_PATH}${frame.id}/`,
          };
        });
        router.post('/api/v1/datum/create-in-frame/:id/', async (ctx) => {
          switchboardCaller(ctx, this.services);
          const body = await this.services.bodies.json(ctx);
          const out = await inSwitchboardTransaction(ctx, this.services, async (r) => {
            const frame = await this.frameRow(r, ctx.params.id, 'write');
            await r.manager.query(`SELECT id FROM switchboard_frame WHERE id = $1 FOR UPDATE`, [frame.id]);
            const batch = Array.isArray(body.objects);
            const added = validateItems(
              batch ? body.objects : [body],
              String(frame.content_type),
              this.services,
              batch ? 'objects' : 'datum',
            );
            const hash = frame.content_hash ? String(frame.content_hash).trim() : '';
            const current = hash ? ((await loadContents(r.manager, [hash])).get(hash) ?? []) : [];
            const frameDef = definitionOf(r, 'frame');
            const updated = await this.services.resources.update(frameDef, frame.id, { content: [...current, ...added] }, r);
            return { added, updated, first: current.length };
          });
          ctx.status = 201;
          ctx.body = {
            objects: out.added.map((fields, i) => ({ ...fields, index: out.first + i })),
            frame: out.updated,
          };
        });
      },
    });
  }
}
