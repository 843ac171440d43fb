import {
  ApiError,
  guard,
  inject,
  injectable,
  optional,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type RouteDescriptor,
  type Row,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { definitionOf, idParam, refParam, SWITCHBOARD_PATH, switchboardFor } from './switchboard-access';
import { FOLDER_PATH, mayChangeFolder } from './switchboard-resources';
import { exportSwitchboard } from './switchboard-file';
import { importSwitchboard } from './switchboard-import';
import { inSwitchboardTransaction, switchboardCaller } from './route-caller';
import { canvasOpenApi } from './switchboard-openapi';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { SwitchboardsServices } from './switchboards-services';
import { SwitchboardTemplates } from '../common/switchboards-api';

/** Largest switchboard file an import reads (bytes). */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Whole switchboards (spec 000 §7 and docs/api.md): create (also from a datum), reload the canvas in
 * one reply, export as a file, import, duplicate.
 */
@injectable()
export class CanvasRoutes implements HttpRouteContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;
  /** Users with an import in progress (one at a time each: an import is heavy). */
  private readonly importing = new Set<number>();

  /** Reads an exported file (at most IMPORT_BODY_LIMIT) and creates the switchboard it describes. */
  private async importFile(ctx: WerkbankContext): Promise<void> {
    const body = await this.services.bodies.json(ctx, { limit: Math.max(this.services.config.bodyLimit, IMPORT_BODY_LIMIT) });
    const name = body.name === undefined ? undefined : String(body.name);
    const created = await importSwitchboard(switchboardCaller(ctx, this.services), this.services, body.file ?? body, {
      name,
      folder: body.folder,
    });
    ctx.status = 201;
    ctx.body = created;
  }
  /** The Magazine is optional: without it there are no datums to start a switchboard from. */
  @inject(DepotAccess) @optional() protected readonly depots?: DepotAccess;
  /** Bound by the plugin that owns layer templates (the layers plugin); `template` is refused without it. */
  @inject(SwitchboardTemplates) @optional() protected readonly templates?: SwitchboardTemplates;

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

  /** The query's parameters, and for POST the JSON body's fields over them (as text). */
  private async params(ctx: WerkbankContext): Promise<Record<string, string | undefined>> {
    const q = { ...(ctx.query as Record<string, string | undefined>) };
    if (ctx.method !== 'POST') return q;
    const body = await this.services.bodies.json(ctx);
    for (const [k, v] of Object.entries(body)) {
      if (v === null || v === undefined) continue;
      q[k] = Array.isArray(v) ? v.join(',') : typeof v === 'object' ? undefined : String(v);
    }
    return q;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'switchboards.canvas-routes',
      realms: ['switchboard'],
      openapi: canvasOpenApi,
      mount: (router) => {
        // spec 000 §7: GET /api/v2/switchboard/create?name=&folder_uri=&tags= (state-changing GET; CSRF
        // header needed) and its POST form, which also takes the fields as a JSON body.
        // With `template` (a layer template datum) or `template_layer` (a layer), spec 000 §7 "Create from
        // template": the switchboard starts with one frame holding the template (decision 0064); an
        // unknown or unreadable template is refused with its reason, never ignored.
        router.register('/api/v2/switchboard/create/', ['GET', 'POST'], async (ctx) => {
          const q = await this.params(ctx);
          const template = q.template?.trim() || undefined;
          const templateLayer = q.template_layer?.trim() || undefined;
          if (template && templateLayer)
            throw ApiError.badRequest('template_conflict', 'switchboards:errors.template_conflict', {}, 'template_layer');
          if ((template || templateLayer) && !this.templates)
            throw new ApiError(
              501,
              'templates_unavailable',
              'switchboards:errors.templates_unavailable',
              {},
              template ? 'template' : 'template_layer',
            );
          const tags = (q.tags ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          // A template is read from a depot, a template layer from the layers: an API key needs that realm too.
          if (template) guard(ctx, this.services.gate, undefined, 'depot');
          if (templateLayer) guard(ctx, this.services.gate, undefined, 'layer');
          // Read before the transaction (the template's depot is read through the Magazine's own requests).
          const from =
            template || templateLayer
              ? await this.templates!.resolve(switchboardCaller(ctx, this.services), { template, template_layer: templateLayer })
              : undefined;
          const out = await inSwitchboardTransaction(ctx, this.services, async (r) => {
            const name = (q.name ?? '').trim() || from?.name.trim() || '';
            if (!name) throw ApiError.badRequest('invalid_parameter', 'errors.field_required', { field: 'name' }, 'name');
            const created = await this.create(
              r,
              {
                name: name.slice(0, 200),
                folder: q.folder_uri ? `${FOLDER_PATH}${refParam(q.folder_uri, FOLDER_PATH, 'folder_uri')}/` : null,
              },
              tags,
            );
            const frame = from
              ? await this.services.resources.create(
                  definitionOf(r, 'frame'),
                  {
                    switchboard: created.resource_uri,
                    content_type: from.content_type,
                    name: from.name.slice(0, 200),
                    content: [from.fields],
                    ui_x: 0,
                    ui_y: 0,
                  },
                  r,
                )
              : undefined;
            return { created, frame };
          });
          ctx.body = {
            resource_uri: out.created.resource_uri,
            switchboard_id: out.created.id,
            name: out.created.name,
            ...(out.frame ? { frame: out.frame.resource_uri } : {}),
          };
        });
        // spec 000 §7: GET /api/v2/switchboard/create/datum?datum=&search= — "Use in switchboard" (and its POST form).
        router.register('/api/v2/switchboard/create/datum/', ['GET', 'POST'], async (ctx) => {
          const q = await this.params(ctx);
          if (!q.datum) throw ApiError.badRequest('invalid_parameter', 'errors.field_required', { field: 'datum' }, 'datum');
          const r0 = switchboardCaller(ctx, this.services);
          // The datum is copied from a depot: an API key needs the depot realm too.
          guard(ctx, this.services.gate, undefined, 'depot');
          if (!this.depots) throw ApiError.notFound();
          const datum = await this.depots.datum(r0.user, q.datum);
          const out = await inSwitchboardTransaction(ctx, this.services, async (r) => {
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
        router.get(`${SWITCHBOARD_PATH}:id/reload/`, async (ctx) => {
          const r = switchboardCaller(ctx, this.services);
          ctx.body = await this.canvas(r, idParam(ctx.params.id));
        });
        router.get(`${SWITCHBOARD_PATH}:id/export/`, async (ctx) => {
          const r = switchboardCaller(ctx, this.services);
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
          // Signed in (and the realm) before a large body is read; one import at a time per user.
          const caller = switchboardCaller(ctx, this.services);
          if (this.importing.has(caller.user.id)) throw new ApiError(429, 'import_running', 'switchboards:errors.import_running');
          this.importing.add(caller.user.id);
          try {
            await this.importFile(ctx);
          } finally {
            this.importing.delete(caller.user.id);
          }
        });
        router.post(`${SWITCHBOARD_PATH}:id/duplicate/`, async (ctx) => {
          switchboardCaller(ctx, this.services);
          const body = await this.services.bodies.json(ctx);
          const id = idParam(ctx.params.id);
          // Read in one transaction (a consistent copy), written in short ones (switchboard-import.ts).
          const source = await inSwitchboardTransaction(ctx, this.services, async (r) => {
            const sb = await switchboardFor(r, id, 'read');
            const folder = sb.folder_id
              ? await r.services.loadReadable(definitionOf(r, 'switchboardfolder'), sb.folder_id as number, r)
              : undefined;
            return {
              file: await exportSwitchboard(r.manager, sb),
              name:
                typeof body.name === 'string' && body.name.trim()
                  ? body.name.trim()
                  : r.t('switchboards:names.copy_of', { name: sb.name }),
              // The copy stays beside the original when the caller may file into that folder.
              folder: folder && mayChangeFolder(folder, r) ? `${FOLDER_PATH}${String(folder.id)}/` : null,
            };
          });
          const created = await importSwitchboard(switchboardCaller(ctx, this.services), this.services, source.file, {
            name: source.name,
            folder: source.folder,
          });
          ctx.status = 201;
          ctx.body = created;
        });
      },
    });
  }
}
