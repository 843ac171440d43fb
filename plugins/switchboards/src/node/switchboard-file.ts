import { ApiError, type EntityManager, type FrameItems, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { loadContents } from './frame-content';
import { bulkRequests, definitionOf } from './switchboard-access';
import { buildGraph, hasCycle } from './graph';
import type { NodePort } from './links';
import { SwitchboardsServices } from './switchboards-services';

/** The format marker of "Save as file" (export) and import. */
export const FILE_FORMAT = 'werkbank-switchboard';
export const FILE_VERSION = 1;
/** Most objects of one kind an imported file may hold. */
const IMPORT_LIMIT = 5000;

export interface SwitchboardFile {
  format: typeof FILE_FORMAT;
  version: number;
  switchboard: Record<string, unknown>;
  nodes: Array<Record<string, unknown> & { ref: number }>;
  frames: Array<Record<string, unknown> & { ref: number; items: FrameItems }>;
  links: Array<Record<string, unknown>>;
  notes: Array<Record<string, unknown>>;
}

/** A switchboard with its nodes (and parameters), frames (with their items), links and notes. */
export async function exportSwitchboard(m: EntityManager, sb: Row): Promise<SwitchboardFile> {
  const q = (sql: string) => m.query(sql, [sb.id]) as Promise<Row[]>;
  const nodes = await q(`SELECT * FROM switchboard_node WHERE switchboard_id = $1 ORDER BY id`);
  const frames = await q(`SELECT * FROM switchboard_frame WHERE switchboard_id = $1 ORDER BY id`);
  const links = await q(`SELECT * FROM switchboard_link WHERE switchboard_id = $1 ORDER BY id`);
  const notes = await q(`SELECT * FROM switchboard_note WHERE switchboard_id = $1 ORDER BY id`);
  const contents = await loadContents(
    m,
    frames.map((f) => (f.content_hash ? String(f.content_hash).trim() : '')),
  );
  return {
    format: FILE_FORMAT,
    version: FILE_VERSION,
    switchboard: {
      name: sb.name,
      description: sb.description,
      ui_offset_x: sb.ui_offset_x,
      ui_offset_y: sb.ui_offset_y,
      ui_zoom: sb.ui_zoom,
      automatic: sb.automatic,
      periodic_execution: sb.periodic_execution,
      periodic_execution_rule: sb.periodic_execution_rule,
    },
    nodes: nodes.map((n) => ({
      ref: n.id,
      func: n.func,
      ports: (n.ports as NodePort[])
        .filter((p) => p.is_input && p.default_value)
        .map((p) => ({ name: p.name, default_value: p.default_value })),
      ui_x: n.ui_x,
      ui_y: n.ui_y,
      ui_collapsed: n.ui_collapsed,
    })),
    frames: frames.map((f) => ({
      ref: f.id,
      content_type: f.content_type,
      storage_context: f.storage_context,
      dynamic_storage_context: f.dynamic_storage_context,
      frame_type: f.frame_type,
      name: f.name,
      description: f.description,
      content_visible: f.content_visible,
      content_edit: f.content_edit,
      ui_docked: f.ui_docked,
      ui_x: f.ui_x,
      ui_y: f.ui_y,
      items: f.content_hash ? (contents.get(String(f.content_hash).trim()) ?? []) : [],
    })),
    links: links.map((l) => ({
      node: l.node_id,
      frame: l.frame_id,
      name: l.name,
      is_input: l.is_input,
      list_index: l.list_index,
      dict_key: l.dict_key,
    })),
    notes: notes.map((n) => ({ text: n.text, ui_x: n.ui_x, ui_y: n.ui_y })),
  };
}

function list(file: Record<string, unknown>, name: string): Array<Record<string, unknown>> {
  const value = file[name] ?? [];
  if (
    !Array.isArray(value) ||
    value.length > IMPORT_LIMIT ||
    value.some((x) => !x || typeof x !== 'object' || Array.isArray(x))
  ) {
    throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_part', { name, max: IMPORT_LIMIT }, name);
  }
  return value as Array<Record<string, unknown>>;
}

/** Re-throws a field error of one imported object with the object's place in the file. */
async function at<T>(field: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ApiError) throw new ApiError(e.status, e.code, e.key, e.params, `${field}${e.field ? `.${e.field}` : ''}`);
    throw e;
  }
}

/**
 * Creates a switchboard from an exported file, in the caller's transaction, through the resource
 * layer (so every object is checked as if made by hand: functions, types, links, cycles). Returns
 * the new switchboard as replies carry it.
 */
export async function importSwitchboard(
  r: ResourceRequest,
  services: SwitchboardsServices,
  raw: unknown,
  opts: { name?: string; folder?: unknown },
): Promise<Record<string, unknown>> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_format', {}, 'file');
  const file = raw as Record<string, unknown>;
  if (file.format !== FILE_FORMAT || file.version !== FILE_VERSION) {
    throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_format', {}, 'format');
  }
  const meta = (file.switchboard ?? {}) as Record<string, unknown>;
  const nodes = list(file, 'nodes');
  const frames = list(file, 'frames');
  const links = list(file, 'links');
  const notes = list(file, 'notes');
  const missing = [...new Set(nodes.map((n) => String(n.func)).filter((f) => !services.functions.get(f)))];
  if (missing.length) {
    throw ApiError.badRequest('unknown_function', 'switchboards:errors.file_functions', { names: missing.join(', ') }, 'nodes');
  }
  const create = (kind: string, body: Record<string, unknown>) => services.resources.create(definitionOf(r, kind), body, r);
  bulkRequests.add(r);
  try {
    return await createAll();
  } finally {
    bulkRequests.delete(r);
  }

  async function createAll(): Promise<Record<string, unknown>> {
    const pick = (o: Record<string, unknown>, keys: string[]) =>
      Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
    const sb = (await create('switchboard', {
      ...pick(meta, [
        'description',
        'ui_offset_x',
        'ui_offset_y',
        'ui_zoom',
        'automatic',
        'periodic_execution',
        'periodic_execution_rule',
      ]),
      name: opts.name ?? (typeof meta.name === 'string' && meta.name.trim() ? meta.name : 'Switchboard'),
      folder: opts.folder ?? null,
    })) as { id: number; resource_uri: string };
    const nodeIds = new Map<unknown, number>();
    for (const [i, n] of nodes.entries()) {
      const created = await at(`nodes[${i}]`, () =>
        create('node', { ...pick(n, ['func', 'ports', 'ui_x', 'ui_y', 'ui_collapsed']), switchboard: sb.resource_uri }),
      );
      nodeIds.set(n.ref, created.id as number);
    }
    const frameIds = new Map<unknown, number>();
    for (const [i, f] of frames.entries()) {
      const created = await at(`frames[${i}]`, () =>
        create('frame', {
          ...pick(f, [
            'content_type',
            'storage_context',
            'dynamic_storage_context',
            'frame_type',
            'name',
            'description',
            'content_visible',
            'content_edit',
            'ui_docked',
            'ui_x',
            'ui_y',
          ]),
          ...(typeof f.storage_context === 'string' ? { storage_context: storedContext(f.storage_context) } : {}),
          content: f.items ?? [],
          switchboard: sb.resource_uri,
        }),
      );
      frameIds.set(f.ref, created.id as number);
    }
    for (const [i, l] of links.entries()) {
      const node = nodeIds.get(l.node);
      const frame = frameIds.get(l.frame);
      if (node === undefined || frame === undefined) {
        throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_link', {}, `links[${i}]`);
      }
      await at(`links[${i}]`, () =>
        create('link', {
          ...pick(l, ['name', 'is_input', 'list_index', 'dict_key']),
          node: `/api/v1/node/${node}/`,
          frame: `/api/v1/frame/${frame}/`,
        }),
      );
    }
    // The links were checked one by one without the graph: one cycle check for all of them.
    const all = (await r.manager.query(`SELECT node_id, frame_id, is_input FROM switchboard_link WHERE switchboard_id = $1`, [
      sb.id,
    ])) as Row[];
    const graph = buildGraph(
      [...nodeIds.values()],
      all.map((l) => ({ node_id: l.node_id as number, frame_id: l.frame_id as number, is_input: !!l.is_input })),
    );
    if (hasCycle(graph)) throw ApiError.badRequest('link_cycle', 'switchboards:errors.link_cycle', {}, 'links');
    for (const [i, n] of notes.entries()) {
      await at(`notes[${i}]`, () => create('note', { ...pick(n, ['text', 'ui_x', 'ui_y']), switchboard: sb.resource_uri }));
    }
    const def = definitionOf(r, 'switchboard');
    const row = await r.services.loadReadable(def, sb.id, r);
    return (await r.services.serialize(def, [row!], r))[0];
  }
}

/**
 * A storage_context as files exported before issue 14 item 11 hold it: a JSON string of the
 * object. Anything else a string may hold is the default storage (null).
 */
function storedContext(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
