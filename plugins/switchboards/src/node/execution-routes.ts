import {
  ApiError,
  guard,
  inject,
  injectable,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type Row,
  type WerkbankContext,
  userDisplayNameSql,
} from '@werkbank/sdk/node';
import { Engine, type Trigger } from './engine';
import { nodeRunJson } from './node-run-json';
import {
  definitionOf,
  EXECUTION_PATH,
  idParam,
  NODE_PATH,
  refParam,
  SWITCHBOARD_PATH,
  switchboardFor,
  WORKFLOW_PATH,
} from './switchboard-access';
import { executionJson } from './execution-json';
import { workflowInputs } from './workflow-inputs';
import { switchboardCaller } from './route-caller';
import { executionOpenApi } from './switchboard-openapi';
import { SwitchboardsServices } from './switchboards-services';

const bool = (v: unknown, field: string): boolean => {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw ApiError.badRequest('invalid_field', 'errors.field_type', { field, type: 'boolean' }, field);
  return v;
};

/**
 * Executions through the API (spec 000 §7 and docs/api.md): run a switchboard or node, abort, execute
 * as a workflow with input values, poll the execution; a node's runs, one run, replay.
 */
@injectable()
export class ExecutionRoutes implements HttpRouteContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;
  @inject(Engine) protected readonly engine!: Engine;

  private caller(ctx: WerkbankContext, realm = 'switchboard'): ResourceRequest {
    return switchboardCaller(ctx, this.services, realm);
  }

  /** Executions and their results serve both realms: a workflow key polls the run it started. */
  private pollCaller(ctx: WerkbankContext): ResourceRequest {
    const realms = ctx.state.apiKeyRealms;
    return this.caller(
      ctx,
      realms && !realms.includes('switchboard') && realms.includes('workflow') ? 'workflow' : 'switchboard',
    );
  }

  private async startRun(ctx: WerkbankContext, sbId: number, body: Record<string, unknown>, nodeId?: number): Promise<void> {
    const r = this.caller(ctx);
    await switchboardFor(r, sbId, 'execute');
    const node = nodeId ?? (body.node === undefined || body.node === null ? undefined : refParam(body.node, NODE_PATH, 'node'));
    const execution = await this.engine.execute({
      switchboardId: sbId,
      user: r.user,
      trigger: r.realms ? 'api' : 'manual',
      node,
      fromHere: node !== undefined ? bool(body.from_here, 'from_here') : false,
      force: bool(body.force, 'force'),
    });
    ctx.status = 202;
    ctx.body = await executionJson(r, this.services, execution.id as number);
  }

  private async executeWorkflow(ctx: WerkbankContext, sbId: number, trigger: Trigger, workflowId?: number): Promise<void> {
    const r = this.caller(ctx, workflowId ? 'workflow' : 'switchboard');
    const body = await this.services.bodies.json(ctx);
    const inputs = await workflowInputs(r, this.services, sbId, body);
    const execution = await this.engine.execute({
      switchboardId: sbId,
      user: r.user,
      trigger,
      inputs,
      workflowId,
      force: bool(body.force, 'force'),
    });
    ctx.status = 202;
    ctx.body = await executionJson(r, this.services, execution.id as number, true);
  }

  /**
   * A workflow runs its switchboard for whoever may execute the workflow; its owner vouches for that
   * and must still be allowed to run the switchboard (403 once the grant is gone).
   */
  private async ownerMayRun(r: ResourceRequest, wf: Row): Promise<void> {
    const owner = wf.owner_id ? await this.services.loadUser(wf.owner_id as number) : undefined;
    const def = definitionOf(r, 'switchboard');
    const as = owner && { ...r, user: owner, realms: undefined };
    const sb = as && (await r.services.loadReadable(def, wf.switchboard_id as number, as));
    if (!as || !sb || !(await r.services.mayAccess(def, sb, as, 'execute'))) {
      throw ApiError.forbidden('workflow_owner_denied', 'switchboards:errors.workflow_owner_denied');
    }
  }

  private async abort(ctx: WerkbankContext, sbId: number): Promise<void> {
    const r = this.caller(ctx);
    await switchboardFor(r, sbId, 'execute');
    const e = await this.engine.abort(sbId, r.user);
    ctx.body = await executionJson(r, this.services, e.id as number);
  }

  private async nodeRow(r: ResourceRequest, raw: string): Promise<Row> {
    const [node] = (await r.manager.query(`SELECT id, switchboard_id, func FROM switchboard_node WHERE id = $1`, [
      idParam(raw),
    ])) as Row[];
    if (!node) throw ApiError.notFound();
    await switchboardFor(r, node.switchboard_id as number, 'read');
    return node;
  }

  private async runRow(r: ResourceRequest, raw: string): Promise<Row> {
    const [run] = (await r.manager.query(
      `SELECT r.*, ${userDisplayNameSql('u')} AS user_name FROM switchboard_noderun r LEFT JOIN werkbank_user u ON u.id = r.user_id WHERE r.id = $1`,
      [idParam(raw)],
    )) as Row[];
    if (!run) throw ApiError.notFound();
    await switchboardFor(r, run.switchboard_id as number, 'read');
    return run;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'switchboards.execution-routes',
      realms: ['switchboard', 'workflow'],
      openapi: executionOpenApi,
      mount: (router) => {
        // spec 000 §7: the runs of a node, newest first; limit=1 gives the latest (component node_runs).
        router.get('/api/v2/switchboard/nodes/:id/runs/', async (ctx) => {
          guard(ctx, this.services.gate, 'node_runs', 'switchboard');
          const r = this.caller(ctx);
          const node = await this.nodeRow(r, ctx.params.id);
          const raw = String(ctx.query.limit ?? '50');
          if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1) {
            throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name: 'limit' }, 'limit');
          }
          const runs = (await r.manager.query(
            `SELECT r.*, ${userDisplayNameSql('u')} AS user_name FROM switchboard_noderun r LEFT JOIN werkbank_user u ON u.id = r.user_id
              WHERE r.node_id = $1 ORDER BY r.id DESC LIMIT $2`,
            [node.id, Math.min(Number(raw), 1000)],
          )) as Row[];
          ctx.body = { items: runs.map((x) => nodeRunJson(x, r, this.services)) };
        });
        router.get('/api/v1/noderun/:id/', async (ctx) => {
          const r = this.caller(ctx);
          ctx.body = nodeRunJson(await this.runRow(r, ctx.params.id), r, this.services, true);
        });
        router.post('/api/v1/noderun/:id/replay/', async (ctx) => {
          const r = this.caller(ctx);
          const run = await this.runRow(r, ctx.params.id);
          await switchboardFor(r, run.switchboard_id as number, 'execute');
          const execution = await this.engine.replay(run.id, r.user);
          ctx.status = 202;
          ctx.body = await executionJson(r, this.services, execution.id as number);
        });
        router.get(`${EXECUTION_PATH}:id/`, async (ctx) => {
          const r = this.pollCaller(ctx);
          ctx.body = await executionJson(r, this.services, idParam(ctx.params.id));
        });
        router.post(`${SWITCHBOARD_PATH}:id/run/`, async (ctx) => {
          this.caller(ctx);
          const body = await this.services.bodies.json(ctx);
          await this.startRun(ctx, idParam(ctx.params.id), body);
        });
        router.post(`${NODE_PATH}:id/run/`, async (ctx) => {
          this.caller(ctx);
          const body = await this.services.bodies.json(ctx);
          const node = await this.nodeRow(this.caller(ctx), ctx.params.id);
          await this.startRun(ctx, node.switchboard_id as number, body, node.id);
        });
        router.post(`${SWITCHBOARD_PATH}:id/abort/`, async (ctx) => {
          this.caller(ctx);
          await this.services.bodies.json(ctx);
          await this.abort(ctx, idParam(ctx.params.id));
        });
        router.post(`${NODE_PATH}:id/abort/`, async (ctx) => {
          this.caller(ctx);
          await this.services.bodies.json(ctx);
          const node = await this.nodeRow(this.caller(ctx), ctx.params.id);
          await this.abort(ctx, node.switchboard_id as number);
        });
        // Workflows through the API: POST {switchboard}execute/ with input values; poll the returned execution.
        router.post(`${SWITCHBOARD_PATH}:id/execute/`, async (ctx) => {
          const r = this.caller(ctx);
          const sbId = idParam(ctx.params.id);
          await switchboardFor(r, sbId, 'execute');
          await this.executeWorkflow(ctx, sbId, r.realms ? 'api' : 'workflow');
        });
        router.post(`${WORKFLOW_PATH}:id/execute/`, async (ctx) => {
          const r = this.caller(ctx, 'workflow');
          const def = definitionOf(r, 'workflow');
          const wf = await r.services.loadReadable(def, idParam(ctx.params.id), r);
          if (!wf) throw ApiError.notFound();
          if (!(await r.services.mayAccess(def, wf, r, 'execute'))) {
            throw ApiError.forbidden('permission_denied', 'switchboards:errors.execute_denied');
          }
          if (!wf.switchboard_id) throw new ApiError(409, 'workflow_empty', 'switchboards:errors.workflow_empty');
          await this.ownerMayRun(r, wf);
          await this.executeWorkflow(ctx, wf.switchboard_id as number, r.realms ? 'api' : 'workflow', wf.id);
        });
      },
    });
  }
}
