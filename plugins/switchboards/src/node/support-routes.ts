import {
  ApiError,
  inject,
  injectable,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type Row,
} from '@werkbank/sdk/node';
import { definitionOf, idParam, NODE_PATH, NODERUN_PATH, switchboardFor } from './switchboard-access';
import { switchboardCaller } from './route-caller';
import { SwitchboardsServices } from './switchboards-services';

/** Longest message of a support request (characters). */
export const SUPPORT_MESSAGE_MAX = 2000;
/** One request per run and user within this time; more are 429 `support_requested`. */
export const SUPPORT_REPEAT_MS = 60_000;
/** The feed entry's `metadata.action`. */
export const SUPPORT_ACTION = 'support_request';

function messageOf(body: Record<string, unknown>): string {
  for (const k of Object.keys(body)) {
    if (k !== 'message') throw ApiError.badRequest('unknown_field', 'errors.unknown_field', { field: k }, k);
  }
  const m = body.message;
  if (m === undefined || m === null) return '';
  if (typeof m !== 'string') {
    throw ApiError.badRequest('invalid_field', 'errors.field_type', { field: 'message', type: 'string' }, 'message');
  }
  if (m.length > SUPPORT_MESSAGE_MAX) {
    throw ApiError.badRequest(
      'invalid_field',
      'errors.field_too_long',
      { field: 'message', max: SUPPORT_MESSAGE_MAX },
      'message',
    );
  }
  return m.trim();
}

/**
 * The support request of a failed run (spec 000 §5, §7; its path is ours: docs/api.md "Running"):
 * `POST /api/v1/noderun/{id}/support/` body `{message?}`. Whoever may read the switchboard may ask;
 * only for a failed run (400 `run_not_failed`); once per run and user a minute (429). It is recorded in
 * the activity feed as an update of the switchboard with `metadata.action = 'support_request'`, so
 * administrators and the switchboard's owner see it, and written to the server log.
 */
@injectable()
export class SupportRoutes implements HttpRouteContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;
  /** Requests being recorded in this process (run:user) until they commit, so two at once count as a repeat. */
  private readonly pending = new Set<string>();

  private async recentRequest(r: ResourceRequest, run: Row): Promise<boolean> {
    const rows = (await r.manager.query(
      `SELECT 1 FROM werkbank_event WHERE kind = 'switchboard' AND object_id = $1 AND user_id = $2
          AND metadata->>'action' = $3 AND metadata->>'run' = $4 AND created > clock_timestamp() - $5 * interval '1 millisecond'
        LIMIT 1`,
      [run.switchboard_id, r.user.id, SUPPORT_ACTION, `${NODERUN_PATH}${String(run.id)}/`, SUPPORT_REPEAT_MS],
    )) as Row[];
    return rows.length > 0;
  }

  private async request(r: ResourceRequest, runId: number, message: string): Promise<void> {
    const [run] = (await r.manager.query(
      `SELECT id, node_id, switchboard_id, status, func, exception FROM switchboard_noderun WHERE id = $1`,
      [runId],
    )) as Row[];
    if (!run) throw ApiError.notFound();
    const sb = await switchboardFor(r, run.switchboard_id as number, 'read');
    if (run.status !== 'failure') throw ApiError.badRequest('run_not_failed', 'switchboards:errors.run_not_failed');
    // One request per run and user at a time across every server process: the check and the record
    // happen under a transaction lock on (run, user).
    await r.manager.query(`SELECT pg_advisory_xact_lock($1::int, $2::int)`, [run.id, r.user.id]);
    if (await this.recentRequest(r, run)) {
      throw new ApiError(429, 'support_requested', 'switchboards:errors.support_requested');
    }
    const metadata = {
      action: SUPPORT_ACTION,
      message,
      node: `${NODE_PATH}${String(run.node_id)}/`,
      run: `${NODERUN_PATH}${String(run.id)}/`,
      func: run.func,
      exception: run.exception ?? null,
    };
    await r.services.recordEvent(definitionOf(r, 'switchboard'), 'update', sb, r, metadata);
    this.services.log(
      `Support request by ${r.user.username} for node run ${String(run.id)} (${String(run.func)}) of switchboard ` +
        // JSON-quoted: a message cannot forge further log lines.
        `${String(run.switchboard_id)}: ${message ? JSON.stringify(message) : '(no message)'}`,
    );
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'switchboards.support-routes',
      realms: ['switchboard'],
      openapi: {
        [`${NODERUN_PATH}{id}/support/`]: {
          post: {
            summary:
              'Asks for support with a failed run: {message?} (at most 2000 characters). Readers of the switchboard; 400 run_not_failed; 429 within a minute of the last request. 201 {status: "sent"}.',
          },
        },
      },
      mount: (router) => {
        router.post(`${NODERUN_PATH}:id/support/`, async (ctx) => {
          const caller = switchboardCaller(ctx, this.services);
          const runId = idParam(ctx.params.id);
          const message = messageOf(await this.services.bodies.json(ctx));
          const key = `${runId}:${caller.user.id}`;
          if (this.pending.has(key)) throw new ApiError(429, 'support_requested', 'switchboards:errors.support_requested');
          this.pending.add(key);
          try {
            await this.services.resources.inTransaction(caller, 'switchboard', (r) => this.request(r, runId, message));
          } finally {
            this.pending.delete(key);
          }
          ctx.status = 201;
          ctx.body = { status: 'sent' };
        });
      },
    });
  }
}
