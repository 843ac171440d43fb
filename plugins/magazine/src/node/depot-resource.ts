import { ApiError, parseRef, type ResourceDefinition, type ResourceRequest } from '@werkbank/sdk/node';
import { ensureFolderReadable } from './depotfolder-resource';
import { depotContextview } from './magazine-contextview';
import { FOLDER_PATH, loadFolderPaths } from './folder-paths';
import { DEPOT_PATH, momentJson, newMoment, recentMoments } from './moment-store';
import { MagazineServices } from './magazine-services';

export const TYPE_PATH = '/api/v1/type/';

/** A type name from a name or a type address (`/api/v1/type/{name}/`). */
export function typeName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  const name = s.startsWith(TYPE_PATH) ? s.slice(TYPE_PATH.length).replace(/\/$/, '') : s;
  return /^[a-z0-9][a-z0-9_.-]{0,99}$/i.test(name) ? name : undefined;
}

/** How many moments the depot replies carry (the full list is at /api/v1/moment/?depot_id=). */
const MOMENTS_IN_REPLY = 10;

async function checkStyleDepot(id: number | null | undefined, req: ResourceRequest, services: MagazineServices): Promise<void> {
  if (id === null || id === undefined) return;
  const def = req.services.definitions().find((d) => d.kind === 'depot')!;
  const row = await req.services.loadReadable(def, id, req);
  if (!row || !services.types.isAssignable(String(row.content_type), 'style')) {
    throw ApiError.badRequest('invalid_field', 'magazine:errors.style_depot', {}, 'style_depot');
  }
}

/** Depots (spec 002 §3 Depot): typed, versioned data containers in folders. */
export function depotResource(services: MagazineServices): ResourceDefinition {
  return {
    id: 'magazine.depot',
    kind: 'depot',
    table: 'magazine_depot',
    label: { de: 'das Depot', en: 'depot' },
    defaultOrder: 'name',
    ownerColumn: 'owner_id',
    objectPermissions: { read: 'read_depot', write: 'write_depot' },
    description:
      'Depots: typed data versioned by moments, organised in depot folders. A reply carries `extent`, the union of the ' +
      'extents of its current datums as [west, south, east, north] in degrees (WGS 84), null when none has a location; ' +
      'each moment in `moments` and `current_moment` carries its own.',
    fields: {
      name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
      description: { type: 'text', default: '', search: true },
      content_type: { type: 'string', required: true, createOnly: true, maxLength: 120, order: true },
      folder: { type: 'ref', column: 'folder_id', refKind: 'depotfolder', nullable: true },
      metadata: { type: 'json', nullable: true },
      style_depot: { type: 'ref', column: 'style_depot_id', refKind: 'depot', nullable: true },
      created: { type: 'datetime', readOnly: true, order: true },
      modified: { type: 'datetime', readOnly: true, order: true },
    },
    queryParams: {
      // by-folder/: 'root' for depots outside every folder, else a folder id or address.
      in_folder: (qb, value) => {
        if (value === 'root') return void qb.andWhere('t.folder_id IS NULL');
        const id = parseRef(value, FOLDER_PATH);
        if (id === undefined) throw ApiError.badRequest('invalid_parameter', 'magazine:errors.folder_param', {}, 'folder');
        qb.andWhere('t.folder_id = :inFolder', { inFolder: id });
      },
      // by-type/: the type and every type deriving from it.
      type_base: (qb, value) => {
        const names = services.types
          .all()
          .map((t) => t.name)
          .filter((n) => services.types.isAssignable(n, value));
        qb.andWhere('t.content_type = ANY(:typeNames)', { typeNames: names.length ? names : [value] });
      },
    },
    contextview: depotContextview,
    hooks: {
      async beforeCreate(values, req) {
        const name = typeName(values.content_type);
        if (!name || !services.types.type(name)) {
          throw ApiError.badRequest(
            'invalid_field',
            'magazine:errors.unknown_type',
            { type: String(values.content_type) },
            'content_type',
          );
        }
        values.content_type = name;
        if (values.folder_id != null) await ensureFolderReadable(values.folder_id as number, req, 'folder');
        await checkStyleDepot(values.style_depot_id as number | null | undefined, req, services);
        // The resource layer hands json fields to hooks as JSON text already (decision 0063: encoding it again stored a string).
        if (values.metadata !== undefined && values.metadata !== null && typeof values.metadata !== 'string')
          values.metadata = JSON.stringify(values.metadata);
      },
      async beforeUpdate(row, changes, req) {
        if (changes.folder_id != null) await ensureFolderReadable(changes.folder_id as number, req, 'folder');
        if (changes.style_depot_id === row.id) {
          throw ApiError.badRequest('invalid_field', 'magazine:errors.style_depot', {}, 'style_depot');
        }
        await checkStyleDepot(changes.style_depot_id as number | null | undefined, req, services);
        if (changes.metadata !== undefined && changes.metadata !== null && typeof changes.metadata !== 'string')
          changes.metadata = JSON.stringify(changes.metadata);
        changes.modified = new Date();
      },
      async serialize(rows, out, req) {
        const ids = rows.map((r) => r.id);
        const moments = await listMomentsPerDepot(req, ids);
        const approved = (await req.manager.query(
          `SELECT depot_id, max(id) AS id FROM magazine_moment WHERE depot_id = ANY($1) AND status = 'approved' GROUP BY depot_id`,
          [ids],
        )) as { depot_id: number; id: number }[];
        const approvedBy = new Map(approved.map((a) => [a.depot_id, a.id]));
        const paths = rows.some((r) => r.folder_id) ? await loadFolderPaths(req.manager) : new Map<number, string>();
        out.forEach((o, i) => {
          const row = rows[i];
          const list = moments.get(row.id) ?? [];
          o.content_type = `${TYPE_PATH}${String(row.content_type)}/`;
          o.type_name = row.content_type;
          o.folder_path = row.folder_id ? (paths.get(row.folder_id as number) ?? null) : null;
          o.current_moment = list[0] ?? null;
          o.extent = list[0]?.extent ?? null;
          o.size = list[0] ? (list[0].size as number) : 0;
          o.approved_moment = approvedBy.get(row.id) ?? null;
          o.moments = list;
        });
      },
    },
    actions: [
      {
        name: 'by-folder',
        method: 'GET',
        detail: false,
        async handler({ query, req, services: rs }) {
          const { folder, ...rest } = query;
          return rs.list(
            rs.definitions().find((d) => d.kind === 'depot')!,
            { ...rest, in_folder: folder || 'root' },
            req,
          );
        },
      },
      {
        // Closes the open head and opens a new moment, e.g. a temporary one.
        name: 'moment',
        method: 'POST',
        detail: true,
        needs: 'write',
        async handler({ row, body, req }) {
          const temporary = body.temporary === undefined ? false : body.temporary;
          const message = body.message === undefined ? '' : body.message;
          if (typeof temporary !== 'boolean')
            throw ApiError.badRequest('invalid_field', 'errors.field_type', { field: 'temporary', type: 'boolean' }, 'temporary');
          if (typeof message !== 'string')
            throw ApiError.badRequest('invalid_field', 'errors.field_type', { field: 'message', type: 'string' }, 'message');
          return momentJson(await newMoment(req.manager, row!.id, req.user.id, { temporary, message }));
        },
      },
    ],
  };
}

/** show_as_layer, edit_as_layer and by-pile belong to the layers plugin (spec 000 §7). */
export function layersUnavailable(): ApiError {
  return new ApiError(501, 'layers_unavailable', 'magazine:errors.layers_unavailable');
}

async function listMomentsPerDepot(req: ResourceRequest, ids: number[]): Promise<Map<number, Record<string, unknown>[]>> {
  const out = new Map<number, Record<string, unknown>[]>();
  for (const row of await recentMoments(req.manager, ids, MOMENTS_IN_REPLY)) {
    const list = out.get(row.depot_id) ?? [];
    list.push(momentJson(row));
    out.set(row.depot_id, list);
  }
  return out;
}

export { DEPOT_PATH };
