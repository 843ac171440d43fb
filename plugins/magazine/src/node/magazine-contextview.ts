import type { ResourceRequest, Row } from '@werkbank/sdk/node';
import { FOLDER_PATH } from './folder-paths';
import { DEPOT_PATH } from './moment-store';

interface Related {
  relations: Array<{ from: string; kind: 'contains'; to: string }>;
  objects: Array<{ type: string; resource_uri: string; name: string }>;
}

/** Readable objects of `kind` among `rows` (id, name), with their address. */
async function readable(req: ResourceRequest, kind: string, rows: Row[]): Promise<Row[]> {
  const def = req.services.definitions().find((d) => d.kind === kind)!;
  const out: Row[] = [];
  for (const r of rows) if (await req.services.loadReadable(def, r.id, req)) out.push(r);
  return out;
}

/** A depot's context (spec 000 §5): the folder that contains it. Switchboards add theirs. */
export async function depotContextview(row: Row, req: ResourceRequest): Promise<Related> {
  const out: Related = { relations: [], objects: [] };
  if (!row.folder_id) return out;
  const folders = (await req.manager.query(`SELECT id, name FROM magazine_depotfolder WHERE id = $1`, [row.folder_id])) as Row[];
  for (const f of await readable(req, 'depotfolder', folders)) {
    out.relations.push({ from: `${FOLDER_PATH}${f.id}/`, kind: 'contains', to: `${DEPOT_PATH}${row.id}/` });
    out.objects.push({ type: 'depotfolder', resource_uri: `${FOLDER_PATH}${f.id}/`, name: String(f.name) });
  }
  return out;
}

/** A depot folder's context: its parent, the folders and the depots it contains (readable ones). */
export async function folderContextview(row: Row, req: ResourceRequest): Promise<Related> {
  const me = `${FOLDER_PATH}${row.id}/`;
  const out: Related = { relations: [], objects: [] };
  if (row.parent_id) {
    const parents = (await req.manager.query(`SELECT id, name FROM magazine_depotfolder WHERE id = $1`, [
      row.parent_id,
    ])) as Row[];
    for (const p of await readable(req, 'depotfolder', parents)) {
      out.relations.push({ from: `${FOLDER_PATH}${p.id}/`, kind: 'contains', to: me });
      out.objects.push({ type: 'depotfolder', resource_uri: `${FOLDER_PATH}${p.id}/`, name: String(p.name) });
    }
  }
  const children = (await req.manager.query(`SELECT id, name FROM magazine_depotfolder WHERE parent_id = $1 ORDER BY name, id`, [
    row.id,
  ])) as Row[];
  for (const c of await readable(req, 'depotfolder', children)) {
    out.relations.push({ from: me, kind: 'contains', to: `${FOLDER_PATH}${c.id}/` });
    out.objects.push({ type: 'depotfolder', resource_uri: `${FOLDER_PATH}${c.id}/`, name: String(c.name) });
  }
  const depots = (await req.manager.query(`SELECT id, name FROM magazine_depot WHERE folder_id = $1 ORDER BY name, id`, [
    row.id,
  ])) as Row[];
  for (const d of await readable(req, 'depot', depots)) {
    out.relations.push({ from: me, kind: 'contains', to: `${DEPOT_PATH}${d.id}/` });
    out.objects.push({ type: 'depot', resource_uri: `${DEPOT_PATH}${d.id}/`, name: String(d.name) });
  }
  return out;
}
