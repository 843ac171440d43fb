import {
  ApiError,
  guard,
  inject,
  injectable,
  requestOf,
  type HttpRouteContribution,
  type RegistrySink,
  type RouteDescriptor,
} from '@werkbank/sdk/node';
import { depotDefinition } from './depot-access';
import { FOLDER_PATH, loadFolderPaths } from './folder-paths';
import { depotOpenApi } from './magazine-openapi';
import { MagazineServices } from './magazine-services';

interface TreeNode {
  id: number;
  name: string;
  resource_uri: string;
  parent: string | null;
  full_path: string;
  depot_count: number;
  access: string[];
  children: TreeNode[];
}

/** The folder tree and depots by type (spec 000 §7 Lists). */
@injectable()
export class DepotRoutes implements HttpRouteContribution {
  @inject(MagazineServices) protected readonly services!: MagazineServices;

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'magazine.depot-routes',
      realms: ['depot'],
      openapi: depotOpenApi,
      mount: (router) => {
        router.get('/api/v1/depotfoldertree/', async (ctx) => {
          guard(ctx, this.services.gate, undefined, 'depot');
          const r = requestOf(ctx, this.services);
          const folderDef = r.services.definitions().find((d) => d.kind === 'depotfolder')!;
          // Every readable folder (trees are small; the list is capped by MAX_LIMIT pages).
          const readable = new Map<number, string[]>();
          const query: Record<string, string> = { limit: '1000', order_by: 'name', count: 'false' };
          for (;;) {
            const page = await r.services.list(folderDef, query, r);
            for (const o of page.objects as Array<{ id: number; access: string[] }>) readable.set(o.id, o.access);
            const after = page.meta.next && new URLSearchParams(page.meta.next.split('?')[1]).get('after');
            if (!after) break;
            query.after = after;
          }
          const rows = (await r.manager.query(
            `SELECT f.id, f.name, f.parent_id, (SELECT count(*)::int FROM magazine_depot d WHERE d.folder_id = f.id) AS depots
             FROM magazine_depotfolder f ORDER BY lower(f.name), f.id`,
          )) as { id: number; name: string; parent_id: number | null; depots: number }[];
          const paths = await loadFolderPaths(r.manager);
          const nodes = new Map<number, TreeNode>();
          for (const f of rows.filter((x) => readable.has(x.id))) {
            nodes.set(f.id, {
              id: f.id,
              name: f.name,
              resource_uri: `${FOLDER_PATH}${f.id}/`,
              parent: f.parent_id ? `${FOLDER_PATH}${f.parent_id}/` : null,
              full_path: paths.get(f.id) ?? f.name,
              depot_count: f.depots,
              access: readable.get(f.id) ?? [],
              children: [],
            });
          }
          const roots: TreeNode[] = [];
          for (const f of rows) {
            const node = nodes.get(f.id);
            if (!node) continue;
            // A folder whose parent the caller cannot read shows at the top level.
            const parent = f.parent_id ? nodes.get(f.parent_id) : undefined;
            (parent ? parent.children : roots).push(node);
          }
          ctx.body = { objects: roots };
        });
        router.get('/api/v1/depot/by-type/:type/', async (ctx) => {
          guard(ctx, this.services.gate, undefined, 'depot');
          const r = requestOf(ctx, this.services);
          if (!this.services.types.type(ctx.params.type)) throw ApiError.notFound();
          const query: Record<string, string> = {};
          for (const [k, v] of Object.entries(ctx.query)) query[k] = Array.isArray(v) ? v.join(',') : (v ?? '');
          ctx.body = await r.services.list(depotDefinition(r), { ...query, type_base: ctx.params.type }, r);
        });
      },
    });
  }
}
