import { ApiError, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { bulkRequests, definitionOf } from './switchboard-access';
import { buildGraph, hasCycle } from './graph';
import { FILE_FORMAT, FILE_VERSION } from './switchboard-file';
import { SwitchboardsServices } from './switchboards-services';

/** Most objects of one kind an imported file may hold. */
const KIND_LIMIT = 5000;
/**
 * Most objects (nodes, frames, links and notes together) one import of a user who is not a
 * superuser may hold: what an import may cost the server is bounded per user (issue 14 item 25).
 */
export const USER_IMPORT_LIMIT = 5000;
/**
 * Objects created per transaction. On the embedded database an open transaction holds every other
 * request, so an import works in short transactions and lets the others in between.
 */
export const IMPORT_CHUNK = 50;

type Caller = Omit<ResourceRequest, 'manager'>;
type Obj = Record<string, unknown>;

function list(file: Obj, name: string): Obj[] {
  const value = file[name] ?? [];
  if (!Array.isArray(value) || value.length > KIND_LIMIT || value.some((x) => !x || typeof x !== 'object' || Array.isArray(x))) {
    throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_part', { name, max: KIND_LIMIT }, name);
  }
  return value as Obj[];
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

const pick = (o: Obj, keys: string[]) => Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

/**
 * Creates a switchboard from an exported file through the resource layer (so every object is
 * checked as if made by hand: functions, types, links, cycles) and returns it as replies carry it.
 * The work runs in transactions of IMPORT_CHUNK objects, so other requests are answered meanwhile;
 * until the last one commits the switchboard carries `import_heartbeat` (renewed by every chunk).
 * Nothing stays half-written: a failure deletes what was created and rethrows; after a crash
 * interrupted-imports.ts deletes it. Throws 400 for a malformed file, unknown functions, a broken
 * link, a cycle, or more than USER_IMPORT_LIMIT objects from a user who is not a superuser.
 */
export async function importSwitchboard(
  caller: Caller,
  services: SwitchboardsServices,
  raw: unknown,
  opts: { name?: string; folder?: unknown },
): Promise<Obj> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_format', {}, 'file');
  const file = raw as Obj;
  if (file.format !== FILE_FORMAT || file.version !== FILE_VERSION) {
    throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_format', {}, 'format');
  }
  const meta = (file.switchboard ?? {}) as Obj;
  const [nodes, frames, links, notes] = ['nodes', 'frames', 'links', 'notes'].map((k) => list(file, k));
  const total = nodes.length + frames.length + links.length + notes.length;
  if (!caller.user.isSuperuser && total > USER_IMPORT_LIMIT) {
    throw ApiError.badRequest(
      'invalid_file',
      'switchboards:errors.file_too_many',
      { count: total, max: USER_IMPORT_LIMIT },
      'file',
    );
  }
  const missing = [...new Set(nodes.map((n) => String(n.func)).filter((f) => !services.functions.get(f)))];
  if (missing.length) {
    throw ApiError.badRequest('unknown_function', 'switchboards:errors.file_functions', { names: missing.join(', ') }, 'nodes');
  }

  /** One short transaction of the import, as a bulk request (shared checks once per transaction). */
  const step = <T>(fn: (r: ResourceRequest) => Promise<T>) =>
    services.resources.inTransaction(caller, 'switchboard', async (r) => {
      bulkRequests.add(r);
      try {
        return await fn(r);
      } finally {
        bulkRequests.delete(r);
      }
    });
  const create = (r: ResourceRequest, kind: string, body: Obj) => services.resources.create(definitionOf(r, kind), body, r);

  const sb = await step(async (r) => {
    const created = (await create(r, 'switchboard', {
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
    await r.manager.query(`UPDATE switchboard SET import_heartbeat = now() WHERE id = $1`, [created.id]);
    return created;
  });

  /** Works through `items` a chunk per transaction, renewing the heartbeat with each. */
  const inChunks = async (items: Obj[], work: (r: ResourceRequest, item: Obj, i: number) => Promise<void>) => {
    for (let start = 0; start < items.length; start += IMPORT_CHUNK) {
      // Lets requests that arrived meanwhile reach the database before the next chunk.
      await new Promise((resolve) => setImmediate(resolve));
      await step(async (r) => {
        for (let i = start; i < Math.min(start + IMPORT_CHUNK, items.length); i++) await work(r, items[i], i);
        await r.manager.query(`UPDATE switchboard SET import_heartbeat = now() WHERE id = $1`, [sb.id]);
      });
    }
  };

  try {
    const nodeIds = new Map<unknown, number>();
    await inChunks(nodes, async (r, n, i) => {
      const created = await at(`nodes[${i}]`, () =>
        create(r, 'node', { ...pick(n, ['func', 'ports', 'ui_x', 'ui_y', 'ui_collapsed']), switchboard: sb.resource_uri }),
      );
      nodeIds.set(n.ref, created.id as number);
    });
    const frameIds = new Map<unknown, number>();
    const FRAME_FIELDS = [
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
    ];
    await inChunks(frames, async (r, f, i) => {
      const created = await at(`frames[${i}]`, () =>
        create(r, 'frame', {
          ...pick(f, FRAME_FIELDS),
          ...(typeof f.storage_context === 'string' ? { storage_context: storedContext(f.storage_context) } : {}),
          content: f.items ?? [],
          switchboard: sb.resource_uri,
        }),
      );
      frameIds.set(f.ref, created.id as number);
    });
    await inChunks(links, async (r, l, i) => {
      const node = nodeIds.get(l.node);
      const frame = frameIds.get(l.frame);
      if (node === undefined || frame === undefined) {
        throw ApiError.badRequest('invalid_file', 'switchboards:errors.file_link', {}, `links[${i}]`);
      }
      await at(`links[${i}]`, () =>
        create(r, 'link', {
          ...pick(l, ['name', 'is_input', 'list_index', 'dict_key']),
          node: `/api/v1/node/${node}/`,
          frame: `/api/v1/frame/${frame}/`,
        }),
      );
    });
    await inChunks(notes, async (r, n, i) => {
      await at(`notes[${i}]`, () => create(r, 'note', { ...pick(n, ['text', 'ui_x', 'ui_y']), switchboard: sb.resource_uri }));
    });
    return await step(async (r) => {
      // The links were checked one by one without the graph: one cycle check for all of them.
      const all = (await r.manager.query(`SELECT node_id, frame_id, is_input FROM switchboard_link WHERE switchboard_id = $1`, [
        sb.id,
      ])) as Row[];
      const graph = buildGraph(
        [...nodeIds.values()],
        all.map((l) => ({ node_id: l.node_id as number, frame_id: l.frame_id as number, is_input: !!l.is_input })),
      );
      if (hasCycle(graph)) throw ApiError.badRequest('link_cycle', 'switchboards:errors.link_cycle', {}, 'links');
      await r.manager.query(`UPDATE switchboard SET import_heartbeat = NULL WHERE id = $1`, [sb.id]);
      const def = definitionOf(r, 'switchboard');
      const row = await r.services.loadReadable(def, sb.id, r);
      return (await r.services.serialize(def, [row!], r))[0];
    });
  } catch (e) {
    await services.dataSource
      .query(`DELETE FROM switchboard WHERE id = $1 AND import_heartbeat IS NOT NULL`, [sb.id])
      .catch((err: Error) =>
        services.log(`Switchboard import: removing the partial switchboard ${sb.id} failed: ${err.message}`),
      );
    throw e;
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
