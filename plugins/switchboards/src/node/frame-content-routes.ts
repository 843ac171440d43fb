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
import { definitionOf, FRAME_PATH, idParam, switchboardFor } from './switchboard-access';
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
