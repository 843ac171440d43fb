import {
  ApiError,
  guard,
  inject,
  injectable,
  readJsonObject,
  requestOf,
  DepotAccess,
  ServerServices,
  type FrameItems,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type Row,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { Engine, type Trigger } from './engine';
import { nodeRunJson } from './node-run-json';
import {
  definitionOf,
  EXECUTION_PATH,
  FRAME_PATH,
  idParam,
  NODE_PATH,
  refParam,
  SWITCHBOARD_PATH,
  switchboardFor,
  WORKFLOW_PATH,
} from './switchboard-access';
import { executionSummary, FOLDER_PATH } from './switchboard-resources';
import { validateItems } from './frame-write';
import { loadContents } from './frame-content';
import { exportSwitchboard, importSwitchboard } from './switchboard-file';
import { switchboardOpenApi } from './switchboard-openapi';

const bool = (v: unknown, field: string): boolean => {
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw ApiError.badRequest('invalid_field', 'errors.field_type', { field, type: 'boolean' }, field);
  return v;
};

/**
 * Switchboard calls beyond the resource layer (spec 000 §7 and the "not shown" ones, documented in
 * docs/api.md): create, create from a datum, run, abort, execute (workflows), replay, runs,
 * executions, duplicate, export, import, reload, frame content and create-in-frame.
 */
@injectable()
export class SwitchboardRoutes implements HttpRouteContribution {
  @inject(ServerServices) protected readonly services!: ServerServices;
  @inject(Engine) protected readonly engine!: Engine;
  @inject(DepotAccess) protected readonly depots!: DepotAccess;

  private caller(ctx: WerkbankContext, realm = 'switchboard'): ResourceRequest {
    guard(ctx, this.services.gate, undefined, realm);
    return requestOf(ctx, this.services);
  }

  /** Executions and their results serve both realms: a workflow key polls the run it started. */
  private pollCaller(ctx: WerkbankContext): ResourceRequest {
    const realms = ctx.state.apiKeyRealms;
    return this.caller(
      ctx,
      realms && !realms.includes('switchboard') && realms.includes('workflow') ? 'workflow' : 'switchboard',
    );
  }

  private inTx<T>(ctx: WerkbankContext, fn: (r: ResourceRequest) => Promise<T>, realm = 'switchboard'): Promise<T> {
    return this.services.resources.inTransaction(this.caller(ctx, realm), 'switchboard', fn);
  }

  private async serialize(r: ResourceRequest, kind: string, rows: Row[]): Promise<Record<string, unknown>[]> {
    return this.services.resources.serialize(definitionOf(r, kind), rows, r);
  }

  private async loadRows(r: ResourceRequest, kind: string, where: string, params: unknown[]): Promise<Row[]> {
    const def = definitionOf(r, kind);
    return (await r.manager.query(`SELECT * FROM ${def.table} WHERE ${where} ORDER BY id`, params)) as Row[];
  }

  /** The whole canvas in one reply: the switchboard, its nodes, frames, links and notes. */
  private async canvas(r: ResourceRequest, id: number): Promise<Record<string, unknown>> {
    const sb = await switchboardFor(r, id, 'read');
    const [switchboard] = await this.serialize(r, 'switchboard', [sb]);
    const part = async (kind: string) => this.serialize(r, kind, await this.loadRows(r, kind, `switchboard_id = $1`, [id]));
    return {
      switchboard,
      nodes: await part('node'),
      frames: await part('frame'),
      links: await part('link'),
      notes: await part('note'),
    };
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
    ctx.body = await this.executionJson(r, execution.id as number);
  }

  /** Input values of a workflow call: `{inputs: {<input frame name, address or id>: [items] | item}}`. */
  private async decodeInputs(r: ResourceRequest, sbId: number, body: Record<string, unknown>): Promise<Map<number, FrameItems>> {
    const raw = body.inputs ?? {};
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      throw ApiError.badRequest('invalid_field', 'switchboards:errors.inputs_shape', {}, 'inputs');
    }
    const frames = (await r.manager.query(
      `SELECT id, name, content_type FROM switchboard_frame WHERE switchboard_id = $1 AND frame_type = 1`,
      [sbId],
    )) as Row[];
    const out = new Map<number, FrameItems>();
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      const frame =
        frames.find((f) => f.name === key) ??
        frames.find((f) => /^\d+$/.test(key) && f.id === Number(key)) ??
        frames.find((f) => key === `${FRAME_PATH}${f.id}/`);
      if (!frame)
        throw ApiError.badRequest('unknown_input', 'switchboards:errors.unknown_input_frame', { name: key }, `inputs.${key}`);
      const items = Array.isArray(value) ? value : [value];
      out.set(frame.id, validateItems(items, String(frame.content_type), this.services, `inputs.${key}`));
    }
    return out;
  }

  private async executeWorkflow(ctx: WerkbankContext, sbId: number, trigger: Trigger, workflowId?: number): Promise<void> {
    const body = await readJsonObject(ctx, this.services.config.bodyLimit);
    const r = this.caller(ctx, workflowId ? 'workflow' : 'switchboard');
    const inputs = await this.decodeInputs(r, sbId, body);
    const execution = await this.engine.execute({
      switchboardId: sbId,
      user: r.user,
      trigger,
      inputs,
      workflowId,
      force: bool(body.force, 'force'),
    });
    ctx.status = 202;
    ctx.body = await this.executionJson(r, execution.id as number, true);
  }

  /** An execution for polling: status, the run panel's stage, progress, node runs and, at the end, the results. */
  private async executionJson(r: ResourceRequest, id: number, trusted = false): Promise<Record<string, unknown>> {
    const [e] = (await r.manager.query(`SELECT * FROM switchboard_execution WHERE id = $1`, [id])) as Row[];
    if (!e) throw ApiError.notFound();
    if (!trusted && e.user_id !== r.user.id && !r.user.isSuperuser) {
      const sb = await r.services.loadReadable(definitionOf(r, 'switchboard'), e.switchboard_id as number, r);
      const wf = e.workflow_id
        ? await r.services.loadReadable(definitionOf(r, 'workflow'), e.workflow_id as number, r)
        : undefined;
      if (!sb && !wf) throw ApiError.notFound();
    }
    const runs = (await r.manager.query(
      `SELECT r.id, r.node_id, r.status, r.start, r."end", r.exception, r.skipped, n.func
         FROM switchboard_noderun r JOIN switchboard_node n ON n.id = r.node_id WHERE r.execution_id = $1 ORDER BY r.id`,
      [id],
    )) as Row[];
    const status = String(e.status);
    const out: Record<string, unknown> = {
      ...executionSummary(e),
      switchboard: `${SWITCHBOARD_PATH}${String(e.switchboard_id)}/`,
      workflow: e.workflow_id ? `${WORKFLOW_PATH}${String(e.workflow_id)}/` : null,
      // The run panel's stages (spec 000 §2): input data, progress, result.
      stage: status === 'started' ? 'progress' : 'result',
      progress: Number(e.total) ? Math.round((Number(e.done) / Number(e.total)) * 1000) / 10 : 100,
      message: e.message,
      runs: runs.map((x) => ({
        id: x.id,
        resource_uri: `/api/v1/noderun/${x.id}/`,
        node: `${NODE_PATH}${String(x.node_id)}/`,
        func: x.func,
        status: x.status,
        skipped: !!x.skipped,
        exception: x.exception,
        start: x.start ? new Date(x.start as string).toISOString() : null,
        end: x.end ? new Date(x.end as string).toISOString() : null,
      })),
    };
    if (status === 'success') {
      const frames = (await r.manager.query(
        `SELECT id, name, content_type, content_hash FROM switchboard_frame WHERE switchboard_id = $1 AND frame_type = 2 ORDER BY id`,
        [e.switchboard_id],
      )) as Row[];
      const contents = await loadContents(
        r.manager,
        frames.map((f) => (f.content_hash ? String(f.content_hash).trim() : '')),
      );
      out.results = frames.map((f) => ({
        frame: `${FRAME_PATH}${f.id}/`,
        name: f.name,
        content_type: `/api/v1/type/${String(f.content_type)}/`,
        items: f.content_hash ? (contents.get(String(f.content_hash).trim()) ?? []) : [],
      }));
    }
    return out;
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
      `SELECT r.*, u.username AS user_name FROM switchboard_noderun r LEFT JOIN werkbank_user u ON u.id = r.user_id WHERE r.id = $1`,
      [idParam(raw)],
    )) as Row[];
    if (!run) throw ApiError.notFound();
    await switchboardFor(r, run.switchboard_id as number, 'read');
    return run;
  }

  private async frameRow(r: ResourceRequest, raw: string, need: 'read' | 'write'): Promise<Row> {
    const [frame] = (await r.manager.query(`SELECT * FROM switchboard_frame WHERE id = $1`, [idParam(raw)])) as Row[];
    if (!frame) throw ApiError.notFound();
    await switchboardFor(r, frame.switchboard_id as number, need);
    return frame;
  }

  /** Creates a switchboard as the caller (owner), with tags assigned through the tags plugin's own call. */
  private async create(r: ResourceRequest, values: Record<string, unknown>, tags: string[]): Promise<Record<string, unknown>> {
    const def = definitionOf(r, 'switchboard');
    const created = (await this.services.resources.create(def, values, r)) as { id: number; resource_uri: string; name: string };
    const tagDef = r.services.definitions().find((d) => d.kind === 'tag');
    const assign = tagDef?.actions?.find((a) => a.name === 'assign-to');
    if (tags.length && (!tagDef || !assign || !this.services.gate.isEnabled('tags'))) {
      throw new ApiError(403, 'component_disabled', 'errors.component_disabled', { name: 'tags' });
    }
    for (const t of tags) {
      // A tag's id or its address as the tags API gives it (`/api/v2/backend/tags/3/`).
      const tagId = refParam(t, tagDef!.path ?? '/api/v1/tag/', 'tags');
      const tag = await r.services.loadReadable(tagDef!, tagId, r);
      if (!tag) throw ApiError.badRequest('invalid_parameter', 'switchboards:errors.unknown_tag', { tag: t }, 'tags');
      await assign!.handler({ row: tag, query: { resource_ids: created.resource_uri }, body: {}, req: r, services: r.services });
    }
    return created;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'switchboards.routes',
      realms: ['switchboard', 'workflow'],
      openapi: switchboardOpenApi,
      mount: (router) => {
        // spec 000 §7: GET /api/v2/switchboard/create?name=&folder_uri=&tags= (state-changing GET; CSRF header needed).
        router.get('/api/v2/switchboard/create/', async (ctx) => {
          const q = ctx.query as Record<string, string | undefined>;
          const name = (q.name ?? '').trim();
          if (!name) throw ApiError.badRequest('invalid_parameter', 'errors.field_required', { field: 'name' }, 'name');
          const tags = (q.tags ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          const created = await this.inTx(ctx, (r) =>
            this.create(
              r,
              { name, folder: q.folder_uri ? `${FOLDER_PATH}${refParam(q.folder_uri, FOLDER_PATH, 'folder_uri')}/` : null },
              tags,
            ),
          );
          ctx.body = { resource_uri: created.resource_uri, switchboard_id: created.id, name: created.name };
        });
        // spec 000 §7: GET /api/v2/switchboard/create/datum?datum=&search= — "Use in switchboard".
        router.get('/api/v2/switchboard/create/datum/', async (ctx) => {
          const q = ctx.query as Record<string, string | undefined>;
          if (!q.datum) throw ApiError.badRequest('invalid_parameter', 'errors.field_required', { field: 'datum' }, 'datum');
          const r0 = this.caller(ctx);
          const datum = await this.depots.datum(r0.user, q.datum);
          const out = await this.inTx(ctx, async (r) => {
            const created = await this.create(r, { name: datum.name || r.t('switchboards:names.from_datum') }, []);
            const frame = await this.services.resources.create(
              definitionOf(r, 'frame'),
              {
                switchboard: created.resource_uri,
                content_type: datum.content_type,
                name: datum.name,
                content: [datum.fields],
                ui_x: 0,
                ui_y: 0,
              },
              r,
            );
            return { created, frame };
          });
          ctx.body = {
            resource_uri: out.created.resource_uri,
            switchboard_id: out.created.id,
            name: out.created.name,
            frame: out.frame.resource_uri,
            search: q.search ?? '',
          };
        });
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
            `SELECT r.*, u.username AS user_name FROM switchboard_noderun r LEFT JOIN werkbank_user u ON u.id = r.user_id
              WHERE r.node_id = $1 ORDER BY r.id DESC LIMIT $2`,
            [node.id, Math.min(Number(raw), 1000)],
          )) as Row[];
          ctx.body = { items: runs.map((x) => nodeRunJson(x)) };
        });
        router.get('/api/v1/noderun/:id/', async (ctx) => {
          const r = this.caller(ctx);
          ctx.body = nodeRunJson(await this.runRow(r, ctx.params.id), true);
        });
        router.post('/api/v1/noderun/:id/replay/', async (ctx) => {
          const r = this.caller(ctx);
          const run = await this.runRow(r, ctx.params.id);
          await switchboardFor(r, run.switchboard_id as number, 'execute');
          const execution = await this.engine.replay(run.id, r.user);
          ctx.status = 202;
          ctx.body = await this.executionJson(r, execution.id as number);
        });
        router.get(`${EXECUTION_PATH}:id/`, async (ctx) => {
          const r = this.pollCaller(ctx);
          ctx.body = await this.executionJson(r, idParam(ctx.params.id));
        });
        router.post(`${SWITCHBOARD_PATH}:id/run/`, async (ctx) => {
          const body = await readJsonObject(ctx, this.services.config.bodyLimit);
          await this.startRun(ctx, idParam(ctx.params.id), body);
        });
        router.post(`${NODE_PATH}:id/run/`, async (ctx) => {
          const body = await readJsonObject(ctx, this.services.config.bodyLimit);
          const node = await this.nodeRow(this.caller(ctx), ctx.params.id);
          await this.startRun(ctx, node.switchboard_id as number, body, node.id);
        });
        const abort = async (ctx: WerkbankContext, sbId: number) => {
          const r = this.caller(ctx);
          await switchboardFor(r, sbId, 'execute');
          const e = await this.engine.abort(sbId, r.user);
          ctx.body = await this.executionJson(r, e.id as number);
        };
        router.post(`${SWITCHBOARD_PATH}:id/abort/`, async (ctx) => {
          await readJsonObject(ctx, this.services.config.bodyLimit);
          await abort(ctx, idParam(ctx.params.id));
        });
        router.post(`${NODE_PATH}:id/abort/`, async (ctx) => {
          await readJsonObject(ctx, this.services.config.bodyLimit);
          const node = await this.nodeRow(this.caller(ctx), ctx.params.id);
          await abort(ctx, node.switchboard_id as number);
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
          await this.executeWorkflow(ctx, wf.switchboard_id as number, r.realms ? 'api' : 'workflow', wf.id);
        });
        router.get(`${SWITCHBOARD_PATH}:id/reload/`, async (ctx) => {
          const r = this.caller(ctx);
          ctx.body = await this.canvas(r, idParam(ctx.params.id));
        });
        router.get(`${SWITCHBOARD_PATH}:id/export/`, async (ctx) => {
          const r = this.caller(ctx);
          const sb = await switchboardFor(r, idParam(ctx.params.id), 'read');
          const file = await exportSwitchboard(r.manager, sb);
          const name =
            String(sb.name)
              .replace(/[^\w.-]+/g, '_')
              .slice(0, 80) || 'switchboard';
          ctx.set('Content-Disposition', `attachment; filename="${name}.switchboard.json"`);
          ctx.type = 'application/json';
          ctx.body = file;
        });
        router.post(`${SWITCHBOARD_PATH}import/`, async (ctx) => {
          const body = await readJsonObject(ctx, Math.max(this.services.config.bodyLimit, 64 * 1024 * 1024));
          const created = await this.inTx(ctx, async (r) => {
            const name = body.name === undefined ? undefined : String(body.name);
            return importSwitchboard(r, this.services, body.file ?? body, { name, folder: body.folder });
          });
          ctx.status = 201;
          ctx.body = created;
        });
        router.post(`${SWITCHBOARD_PATH}:id/duplicate/`, async (ctx) => {
          const body = await readJsonObject(ctx, this.services.config.bodyLimit);
          const id = idParam(ctx.params.id);
          const created = await this.inTx(ctx, async (r) => {
            const sb = await switchboardFor(r, id, 'read');
            const file = await exportSwitchboard(r.manager, sb);
            const name =
              typeof body.name === 'string' && body.name.trim()
                ? body.name.trim()
                : r.t('switchboards:names.copy_of', { name: sb.name });
            return importSwitchboard(r, this.services, file, {
              name,
              folder: sb.folder_id ? `${FOLDER_PATH}${String(sb.folder_id)}/` : null,
            });
          });
          ctx.status = 201;
          ctx.body = created;
        });
        // A frame's items, paged.
        router.get(`${FRAME_PATH}:id/content/`, async (ctx) => {
          const r = this.caller(ctx);
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
                                   WHERE i > $2 AND i <= $2 + $3), '[]'::jsonb) AS page
                   FROM switchboard_content WHERE hash = $1`,
                [hash, offset, limit],
              )) as { page: FrameItems | null }[])
            : [];
          ctx.body = {
            objects: rows[0]?.page ?? [],
            meta: { offset, limit, total_count: frame.size },
            content_type: `/api/v1/type/${String(frame.content_type)}/`,
            content_hash: hash,
          };
        });
        // spec 000 §7: GET create-in-frame gives a template; POST appends datums to the frame.
        router.get('/api/v1/datum/create-in-frame/:id/', async (ctx) => {
          const r = this.caller(ctx);
          const frame = await this.frameRow(r, ctx.params.id, 'read');
          const type = String(frame.content_type);
          ctx.body = {
            ...this.services.datumTypes.template(type),
            content_type: `/api/v1/type/${type}/`,
            frame: `${FRAME_PATH}${frame.id}/`,
          };
        });
        router.post('/api/v1/datum/create-in-frame/:id/', async (ctx) => {
          const body = await readJsonObject(ctx, this.services.config.bodyLimit);
          const out = await this.inTx(ctx, async (r) => {
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
