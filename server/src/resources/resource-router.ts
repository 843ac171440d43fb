import type Router from '@koa/router';
import type { DataSource } from 'typeorm';
import type { ComponentGate } from '@werkbank/kernel';
import {
  ApiError,
  guard,
  type ResourceDefinition,
  type ResourceRequest,
  type WerkbankContext,
  type WerkbankState,
} from '@werkbank/sdk/node';
import { readJsonObject } from '../http/body';
import { basePath } from './field-codec';
import type { ListTiming, ResourceService } from './resource-service';

export interface ResourceRouterOptions {
  db: DataSource;
  service: ResourceService;
  gate: ComponentGate;
  bodyLimit: number;
}

function query(ctx: WerkbankContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.query)) out[k] = Array.isArray(v) ? v.join(',') : (v ?? '');
  return out;
}

/**
 * Create, detail, change, store, delete and favour take no query parameters: one sent there is
 * 400 `unknown_parameter` naming it, as an unknown filter is on a list (issue 14 item 22), so a
 * mistyped option is never silently ignored.
 */
function refuseQuery(ctx: WerkbankContext): void {
  const [name] = Object.keys(ctx.query);
  if (name !== undefined) throw ApiError.badRequest('unknown_parameter', 'errors.unknown_parameter', { name }, name);
}

function parseId(raw: string): number | undefined {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

/**
 * Binds every resource definition to HTTP (spec 000 §7 "Generic"): list and create on the list
 * address; GET, POST, PATCH, DELETE on an object; favor/, unfavor/, contextview/ and the kind's
 * own actions.
 */
export function mountResource(router: Router<WerkbankState>, def: ResourceDefinition, opts: ResourceRouterOptions): void {
  const base = basePath(def);
  const realm = def.realm ?? def.kind;
  const { service, gate, db } = opts;
  const reqOf = (ctx: WerkbankContext): ResourceRequest => ({
    user: ctx.state.user!,
    t: ctx.state.t,
    lang: ctx.state.lang,
    manager: db.manager,
    services: service,
    realms: ctx.state.apiKeyRealms,
  });
  const write = <T>(ctx: WerkbankContext, fn: (r: ResourceRequest) => Promise<T>) =>
    service.inTransaction(reqOf(ctx), def.kind, fn);

  router.get(base, async (ctx) => {
    guard(ctx, gate, def.component, realm);
    const timing: ListTiming = {};
    ctx.body = await service.list(def, query(ctx), reqOf(ctx), timing);
    // What the exact count cost beside the page (skip it with count=false).
    const parts = [];
    if (timing.countMs !== undefined) parts.push(`count;dur=${timing.countMs.toFixed(1)}`);
    if (timing.pageMs !== undefined) parts.push(`page;dur=${timing.pageMs.toFixed(1)}`);
    if (parts.length) ctx.set('Server-Timing', parts.join(', '));
  });
  router.post(base, async (ctx) => {
    guard(ctx, gate, def.component, realm);
    refuseQuery(ctx);
    const body = await readJsonObject(ctx, opts.bodyLimit);
    ctx.body = await write(ctx, (r) => service.create(def, body, r));
    ctx.status = 201;
  });

  for (const action of def.actions ?? []) {
    const path = action.detail ? `${base}:id/${action.name}/` : `${base}${action.name}/`;
    const method = action.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    router[method](path, async (ctx, next) => {
      const id = action.detail ? parseId(ctx.params.id) : undefined;
      if (action.detail && id === undefined) return next();
      guard(ctx, gate, def.component, realm);
      const body = action.method === 'GET' ? {} : await readJsonObject(ctx, opts.bodyLimit);
      const run = async (r: ResourceRequest) => {
        let row;
        if (id !== undefined) {
          row = await service.loadReadable(def, id, r);
          if (!row) throw ApiError.notFound();
          if (action.needs && action.needs !== 'read' && !(await service.mayAccess(def, row, r, action.needs))) {
            throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
          }
        }
        return action.handler({ row, query: query(ctx), body, req: r, services: service });
      };
      const result = action.method === 'GET' ? await run(reqOf(ctx)) : await write(ctx, run);
      ctx.body = result ?? { status: 'ok' };
    });
  }

  const detail = `${base}:id/`;
  const withId =
    (handler: (ctx: WerkbankContext, id: number) => Promise<void>) =>
    async (ctx: WerkbankContext, next: () => Promise<unknown>) => {
      const id = parseId(ctx.params.id);
      if (id === undefined) return next();
      guard(ctx, gate, def.component, realm);
      refuseQuery(ctx);
      await handler(ctx, id);
    };
  router.get(
    detail,
    withId(async (ctx, id) => {
      ctx.body = await service.detail(def, id, reqOf(ctx));
    }),
  );
  router.patch(
    detail,
    withId(async (ctx, id) => {
      const body = await readJsonObject(ctx, opts.bodyLimit);
      ctx.body = await write(ctx, (r) => service.update(def, id, body, r, 'update'));
    }),
  );
  router.post(
    detail,
    withId(async (ctx, id) => {
      const body = await readJsonObject(ctx, opts.bodyLimit);
      ctx.body = await write(ctx, (r) => service.update(def, id, body, r, 'store'));
    }),
  );
  router.delete(
    detail,
    withId(async (ctx, id) => {
      await write(ctx, (r) => service.remove(def, id, r));
      ctx.status = 204;
    }),
  );
  // spec 000 §7: favour and unfavour are GETs; they still require the CSRF header, and POST does
  // the same (docs/api.md "State-changing GETs").
  for (const [name, on] of [
    ['favor', true],
    ['unfavor', false],
  ] as const) {
    router.register(
      `${detail}${name}/`,
      ['GET', 'POST'],
      withId(async (ctx, id) => {
        await write(ctx, (r) => service.favor(def, id, r, on));
        ctx.body = { status: 'ok', favored: on };
      }),
    );
  }
  router.get(
    `${detail}contextview/`,
    withId(async (ctx, id) => {
      const r = reqOf(ctx);
      const row = await service.loadReadable(def, id, r);
      if (!row) throw ApiError.notFound();
      const related = def.contextview ? await def.contextview(row, r) : { relations: [], objects: [] };
      for (const ext of service.extensionList()) {
        const more = await ext.contextview?.(def, row, r);
        if (more) {
          related.relations.push(...more.relations);
          related.objects.push(...more.objects);
        }
      }
      // An API key sees related objects only of kinds its realms cover.
      if (r.realms && !r.realms.includes('*')) {
        const realmOf = (kind: string) => {
          const d = service.definitions().find((x) => x.kind === kind);
          return d ? (d.realm ?? d.kind) : undefined;
        };
        const objects = (related.objects as Array<{ type: string; resource_uri: string }>).filter((o) => {
          const realm = realmOf(o.type);
          return realm !== undefined && r.realms!.includes(realm);
        });
        const kept = new Set([service.uriOf(def, id), ...objects.map((o) => o.resource_uri)]);
        related.objects = objects;
        related.relations = (related.relations as Array<{ from: string; to: string }>).filter(
          (x) => kept.has(x.from) && kept.has(x.to),
        );
      }
      ctx.body = { type: def.kind, resource_uri: service.uriOf(def, id), ...related };
    }),
  );
}
