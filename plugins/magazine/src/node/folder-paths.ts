import type { EntityManager } from '@werkbank/sdk/node';

export const FOLDER_PATH = '/api/v1/depotfolder/';

interface FolderRow {
  id: number;
  name: string;
  parent_id: number | null;
}

/** Every folder's full path (names from the root joined by '/'), by id. Folder trees are small. */
export async function loadFolderPaths(m: EntityManager): Promise<Map<number, string>> {
  const rows = (await m.query(`SELECT id, name, parent_id FROM magazine_depotfolder`)) as FolderRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<number, string>();
  const pathOf = (id: number, seen: Set<number>): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const r = byId.get(id)!;
    const p =
      r.parent_id && byId.has(r.parent_id) && !seen.has(r.parent_id) ? `${pathOf(r.parent_id, seen.add(id))}/${r.name}` : r.name;
    paths.set(id, p);
    return p;
  };
  for (const r of rows) pathOf(r.id, new Set());
  return paths;
}

/** The folder and all its descendants. */
export async function folderSubtree(m: EntityManager, id: number): Promise<number[]> {
  const rows = (await m.query(
    `WITH RECURSIVE sub(id) AS (SELECT $1::int UNION SELECT f.id FROM magazine_depotfolder f JOIN sub ON f.parent_id = sub.id)
     SELECT id FROM sub`,
    [id],
  )) as { id: number }[];
  return rows.map((r) => r.id);
}
