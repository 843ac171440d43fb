import {
  ApiError,
  injectable,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type WerkbankContext,
  inject,
} from '@werkbank/sdk/node';
import { callerOf, pageOf } from './magazine-routes';
import { depotFor, depotDefinition, idParam } from './depot-access';
import {
  approveMoment,
  deleteMoment,
  finalizeMoment,
  headMoment,
  listMoments,
  loadMoment,
  lockDepot,
  momentJson,
  restoreMoment,
  type MomentRow,
} from './moment-store';
import { momentOpenApi } from './magazine-openapi';
import { MagazineServices } from './magazine-services';
import type { DatumWriteTarget } from '../common/magazine-api';

function optionalMessage(body: Record<string, unknown>): string {
  if (body.message === undefined || body.message === null) return '';
  if (typeof body.message !== 'string' || body.message.length > 2000) {
    throw ApiError.badRequest('invalid_field', 'magazine:errors.message', { max: 2000 }, 'message');
  }
  return body.message.trim();
}

/** Bus channel announcing an approved moment: `{depot_id, moment_id}` (automatic switchboards listen). */
export const MOMENT_APPROVED_CHANNEL = 'werkbank_moment_approved';

/** Moments (spec 000 §4, §7 "Moments"): list, read, approve, restore, finalize, delete. */
@injectable()
export class MomentRoutes implements HttpRouteContribution {
  @inject(MagazineServices) protected readonly services!: MagazineServices;

  private req(ctx: WerkbankContext): ResourceRequest {
    return callerOf(ctx, this.services);
  }

  /** The moment, when the caller may read its depot (and write it, for 'write'). */
  private async moment(r: ResourceRequest, raw: string, need: 'read' | 'write'): Promise<MomentRow> {
    const moment = await loadMoment(r.manager, idParam(raw));
    if (!moment) throw ApiError.notFound();
    await depotFor(r, moment.depot_id, need);
    return moment;
  }

  /**
   * Runs the datum write guards for a moment action that changes the content the depot counts: a
   * restore or a delete (`momentId` the head it leaves), or the approval of an older moment (its
   * content becomes the latest approved one; the head's was checked when it was written).
   */
  private async guard(r: ResourceRequest, depotId: number, momentId: number, action: DatumWriteTarget['action']) {
    const depot = await depotFor(r, depotId, 'read');
    await this.services.writeGuards.check(r, {
      depot_id: depotId,
      content_type: String(depot.content_type),
      moment_id: momentId,
      action,
    });
  }

  /** A moment action in one transaction, with a feed entry on the depot. */
  private act(ctx: WerkbankContext, action: string, fn: (r: ResourceRequest, m: MomentRow) => Promise<unknown>) {
    return this.services.resources.inTransaction(this.req(ctx), 'depot', async (r) => {
      const seen = await this.moment(r, ctx.params.id, 'write');
      // Read again under the depot's lock: a concurrent write or delete has finished by now.
      await lockDepot(r.manager, seen.depot_id);
      const moment = await loadMoment(r.manager, seen.id);
      if (!moment) throw ApiError.notFound();
      const result = await fn(r, moment);
      const def = depotDefinition(r);
      const depot = await r.services.loadReadable(def, moment.depot_id, r);
      if (depot) await r.services.recordEvent(def, 'update', depot, r, { action, moment_id: moment.id });
      return result;
    });
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'magazine.moment-routes',
      realms: ['depot'],
      openapi: momentOpenApi,
      mount: (router) => {
        router.get('/api/v1/moment/', async (ctx) => {
          const r = this.req(ctx);
          const depotId = idParam(typeof ctx.query.depot_id === 'string' ? ctx.query.depot_id : undefined);
          await depotFor(r, depotId, 'read');
          const { offset, limit } = pageOf(ctx.query);
          // The cursor of this list (newest first) is the last moment's id, as `after=` of meta.next.
          const rawAfter = typeof ctx.query.after === 'string' ? ctx.query.after : '';
          if (rawAfter && !/^\d{1,9}$/.test(rawAfter)) {
            throw ApiError.badRequest('invalid_cursor', 'errors.invalid_cursor', {}, 'after');
          }
          if (rawAfter && offset) throw ApiError.badRequest('invalid_parameter', 'errors.cursor_with_offset', {}, 'offset');
          const after = rawAfter ? Number(rawAfter) : undefined;
          const found = await listMoments(r.manager, [depotId], offset, limit + 1, after);
          const rows = found.slice(0, limit);
          const n =
            ctx.query.count === 'false'
              ? null
              : (
                  (await r.manager.query(`SELECT count(*)::int AS n FROM magazine_moment WHERE depot_id = $1`, [depotId])) as {
                    n: number;
                  }[]
                )[0].n;
          const next =
            found.length > limit ? `/api/v1/moment/?depot_id=${depotId}&limit=${limit}&after=${rows[rows.length - 1].id}` : null;
          ctx.body = {
            objects: rows.map(momentJson),
            meta: { offset: after === undefined ? offset : null, limit, total_count: n, next },
          };
        });
        router.get('/api/v1/moment/:id/', async (ctx) => {
          const r = this.req(ctx);
          ctx.body = momentJson(await this.moment(r, ctx.params.id, 'read'));
        });
        router.post('/api/v1/moment/:id/approve/', async (ctx) => {
          const body = await this.services.bodies.json(ctx);
          ctx.body = await this.act(ctx, 'moment_approve', async (r, m) => {
            const head = await headMoment(r.manager, m.depot_id);
            const approved = await approveMoment(r.manager, m, optionalMessage(body));
            if (head?.id !== m.id) await this.guard(r, m.depot_id, m.id, 'moment_approve');
            // Automatic switchboards reading the depot start on this (after the commit).
            await this.services.bus.publish(
              MOMENT_APPROVED_CHANNEL,
              { depot_id: approved.depot_id, moment_id: approved.id },
              { after: r.manager },
            );
            return momentJson(approved);
          });
        });
        router.post('/api/v1/moment/:id/restore/', async (ctx) => {
          const body = await this.services.bodies.json(ctx);
          ctx.body = await this.act(ctx, 'moment_restore', async (r, m) => {
            const restored = await restoreMoment(r.manager, m, r.user.id, optionalMessage(body));
            await this.guard(r, m.depot_id, restored.id, 'moment_restore');
            return momentJson(restored);
          });
        });
        // A state-changing GET of the spec (CSRF header needed) and its POST form.
        router.register('/api/v1/moment/:id/finalize/', ['GET', 'POST'], async (ctx) => {
          ctx.body = await this.act(ctx, 'moment_finalize', async (r, m) =>
            momentJson(await finalizeMoment(r.manager, m, r.user.id)),
          );
        });
        router.delete('/api/v1/moment/:id/', async (ctx) => {
          ctx.body = await this.act(ctx, 'moment_delete', async (r, m) => {
            const { head } = await deleteMoment(r.manager, m);
            if (head !== null) await this.guard(r, m.depot_id, head, 'moment_delete');
            return { status: 'ok', moment_id: head };
          });
        });
      },
    });
  }
}
