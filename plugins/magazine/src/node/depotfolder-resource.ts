import { ApiError, parseRef, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { FOLDER_PATH, loadFolderPaths, folderSubtree } from './folder-paths';
import { folderContextview } from './magazine-contextview';

/** Refuses a parent that is the folder itself or one of its descendants (spec 002 §4). */
async function checkParent(row: Row, parentId: number | null, req: ResourceRequest, field: string): Promise<void> {
  if (parentId === null) return;
  // One move at a time: two opposite moves checked side by side could close a cycle.
  await req.manager.query(`SELECT pg_advisory_xact_lock(hashtext('magazine.depotfolder.move'))`);
  const subtree = await folderSubtree(req.manager, row.id);
  if (subtree.includes(parentId)) throw ApiError.badRequest('folder_cycle', 'magazine:errors.folder_cycle', {}, field);
}

/** Depot folders (spec 002 §3 DepotFolder): name, parent, full_path, permissions. */
export const depotFolderResource: ResourceDefinition = {
  id: 'magazine.depotfolder',
  kind: 'depotfolder',
  realm: 'depot',
  table: 'magazine_depotfolder',
  label: { de: 'den Depot-Ordner', en: 'depot folder' },
  defaultOrder: 'name',
  ownerColumn: 'owner_id',
  objectPermissions: { read: 'read_depotfolder', write: 'write_depotfolder' },
  description: 'Depot folders: a tree that organises depots.',
  fields: {
    name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
    parent: { type: 'ref', column: 'parent_id', refKind: 'depotfolder', nullable: true, filter: true },
    // spec 000 §7: moving an object is PATCH with `folder`; for a folder that is its parent.
    folder: { type: 'ref', refKind: 'depotfolder', nullable: true, virtual: true },
    created: { type: 'datetime', readOnly: true, order: true },
  },
  contextview: folderContextview,
  hooks: {
    async beforeCreate(values, req) {
      const parent = values.parent_id as number | null | undefined;
      if (parent != null) await ensureFolderReadable(parent, req, 'parent');
    },
    async beforeUpdate(row, changes, req) {
      if (changes.parent_id !== undefined) {
        const parent = changes.parent_id as number | null;
        if (parent !== null) await ensureFolderReadable(parent, req, 'parent');
        await checkParent(row, parent, req, 'parent');
      }
    },
    async afterWrite(row, virtuals, req) {
      if (virtuals.folder === undefined) return;
      const parent = virtuals.folder === null ? null : parseRef(virtuals.folder, FOLDER_PATH)!;
      if (parent !== null) await ensureFolderReadable(parent, req, 'folder');
      await checkParent(row, parent, req, 'folder');
      await req.manager.query(`UPDATE magazine_depotfolder SET parent_id = $1 WHERE id = $2`, [parent, row.id]);
      row.parent_id = parent;
    },
    async beforeDelete(row, req) {
      const [{ n }] = (await req.manager.query(
        `SELECT (SELECT count(*) FROM magazine_depotfolder WHERE parent_id = $1) + (SELECT count(*) FROM magazine_depot WHERE folder_id = $1) AS n`,
        [row.id],
      )) as { n: string }[];
      if (Number(n) > 0) throw new ApiError(409, 'folder_not_empty', 'magazine:errors.folder_not_empty', { name: row.name });
    },
    async serialize(rows, out, req) {
      const paths = await loadFolderPaths(req.manager);
      out.forEach((o, i) => {
        o.full_path = paths.get(rows[i].id) ?? String(rows[i].name);
        o.parent = rows[i].parent_id ? `${FOLDER_PATH}${rows[i].parent_id}/` : null;
      });
    },
  },
};

/** A folder named in a body must exist and be readable by the caller; 400 naming the field otherwise. */
export async function ensureFolderReadable(id: number, req: ResourceRequest, field: string): Promise<void> {
  const def = req.services.definitions().find((d) => d.kind === 'depotfolder')!;
  if (!(await req.services.loadReadable(def, id, req))) {
    throw ApiError.badRequest('invalid_field', 'magazine:errors.folder_unknown', { field }, field);
  }
}
