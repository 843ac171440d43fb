import sanitizeHtml from 'sanitize-html';
import { marked } from 'marked';
import {
  ApiError,
  type FieldSpec,
  type FunctionDescriptor,
  type ResourceDefinition,
  type ResourceRequest,
  type Row,
  type SelectQueryBuilder,
  type ServerServices,
} from '@werkbank/sdk/node';
import { definitionOf, FRAME_PATH, LINK_PATH, NODE_PATH, SWITCHBOARD_PATH, switchboardFor } from './switchboard-access';
import { publishLive, type LiveEvent } from './live';
import { checkLink, nodePortsFrom, type NodePort, decodePortDefaults } from './links';
import { markOutdated } from './outdated';
import { frameContentWrite } from './frame-write';
import { textOf } from './i18n-text';

/** Lists and objects of nodes, frames, links and notes show only those of readable switchboards. */
function readableSwitchboards(qb: SelectQueryBuilder<Row>, req: ResourceRequest): void {
  const def = definitionOf(req, 'switchboard');
  const sub = qb.subQuery().select('sb.id').from(def.table, 'sb');
  req.services.applyReadable(sub as unknown as SelectQueryBuilder<Row>, def, req, 'sb');
  qb.andWhere(`t.switchboard_id IN ${sub.getQuery()}`);
  qb.setParameters(sub.getParameters());
}

const switchboardField: FieldSpec = {
  type: 'ref',
  column: 'switchboard_id',
  refKind: 'switchboard',
  required: true,
  createOnly: true,
  filter: true,
};

const switchboardIdParam = (qb: SelectQueryBuilder<Row>, value: string) => {
  if (!/^\d{1,9}$/.test(value))
    throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name: 'switchboard_id' }, 'switchboard_id');
  qb.andWhere('t.switchboard_id = :sbId', { sbId: Number(value) });
};

/** Serialises the caller's access from the switchboard's, so the canvas offers only what works. */
async function accessFromSwitchboard(rows: Row[], out: Record<string, unknown>[], req: ResourceRequest): Promise<void> {
  const def = definitionOf(req, 'switchboard');
  const ids = [...new Set(rows.map((r) => r.switchboard_id as number))];
  const access = new Map<number, string[]>();
  for (const id of ids) {
    const sb = await req.services.loadReadable(def, id, req);
    const list = sb ? ['read'] : [];
    if (sb && (await req.services.mayAccess(def, sb, req, 'write'))) list.push('write');
    if (sb && (await req.services.mayAccess(def, sb, req, 'execute'))) list.push('execute');
    access.set(id, list);
  }
  out.forEach((o, i) => {
    o.access = access.get(rows[i].switchboard_id as number) ?? [];
    o.switchboard = `${SWITCHBOARD_PATH}${String(rows[i].switchboard_id)}/`;
  });
}

/** Requests in the middle of creating an object (beforeCreate → afterWrite of the same call). */
const creating = new WeakSet<ResourceRequest>();

type OnWritten = (
  row: Row,
  virtuals: Record<string, unknown>,
  req: ResourceRequest,
  created: boolean,
) => Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined;

/** Common parts of the four kinds that live on a switchboard's canvas. */
function canvasKind(
  kind: 'node' | 'frame' | 'link' | 'note',
  event: 'NODE' | 'FRAME' | 'LINK' | 'NOTE',
  services: ServerServices,
  def: Omit<ResourceDefinition, 'kind' | 'id' | 'realm' | 'events' | 'readFilter' | 'queryParams'>,
  onWritten?: OnWritten,
): ResourceDefinition {
  const path = `/api/v1/${kind}/`;
  const hooks = def.hooks ?? {};
  return {
    ...def,
    id: `switchboards.${kind}`,
    kind,
    realm: 'switchboard',
    events: false,
    readFilter: (qb, req) => readableSwitchboards(qb, req),
    queryParams: { switchboard_id: switchboardIdParam },
    hooks: {
      ...hooks,
      async beforeCreate(values, req) {
        // A link belongs to its node's switchboard.
        if (kind === 'link' && values.switchboard_id == null && typeof values.node_id === 'number') {
          const [n] = (await req.manager.query(`SELECT switchboard_id FROM switchboard_node WHERE id = $1`, [
            values.node_id,
          ])) as Row[];
          if (!n) throw ApiError.badRequest('invalid_field', 'switchboards:errors.link_node', {}, 'node');
          values.switchboard_id = n.switchboard_id;
        }
        if (values.switchboard_id == null)
          throw ApiError.badRequest('missing_field', 'errors.field_required', { field: 'switchboard' }, 'switchboard');
        await switchboardFor(req, values.switchboard_id as number, 'write');
        await hooks.beforeCreate?.(values, req);
        creating.add(req);
      },
      async beforeUpdate(row, changes, req) {
        await switchboardFor(req, row.switchboard_id as number, 'write');
        await hooks.beforeUpdate?.(row, changes, req);
      },
      async beforeDelete(row, req) {
        await switchboardFor(req, row.switchboard_id as number, 'write');
        await hooks.beforeDelete?.(row, req);
        publishLive(services, req.manager, {
          switchboard_id: row.switchboard_id as number,
          event: `${event}_DELETE` as LiveEvent,
          resource_uri: `${path}${row.id}/`,
        });
      },
      async afterWrite(row, virtuals, req) {
        const created = creating.delete(req);
        const fields = await onWritten?.(row, virtuals, req, created);
        publishLive(services, req.manager, {
          switchboard_id: row.switchboard_id as number,
          event: created ? (`${event}_INSERT` as LiveEvent) : 'UPDATE',
          resource_uri: `${path}${row.id}/`,
          fields: created ? undefined : fields,
        });
      },
      async serialize(rows, out, req) {
        await accessFromSwitchboard(rows, out, req);
        await hooks.serialize?.(rows, out, req);
      },
    },
  };
}

const uiFields: Record<string, FieldSpec> = {
  ui_x: { type: 'number', default: 0 },
  ui_y: { type: 'number', default: 0 },
};

/** Fields whose change alters what a node or frame produces (moves on the canvas do not). */
const NODE_SEMANTIC = ['ports'];
const FRAME_SEMANTIC = ['content_type', 'storage_context', 'dynamic_storage_context'];

/** Nodes: one function each, with its ports (inputs carry the node's parameters as default values). */
export function nodeResource(services: ServerServices): ResourceDefinition {
  const fnOf = (name: unknown): FunctionDescriptor | undefined => services.functions.get(String(name));
  return canvasKind(
    'node',
    'NODE',
    services,
    {
      table: 'switchboard_node',
      label: { de: 'den Knoten', en: 'node' },
      description: 'Nodes of a switchboard: each runs a function on the frames linked to its ports.',
      fields: {
        switchboard: switchboardField,
        func: { type: 'string', required: true, createOnly: true, maxLength: 200, filter: true },
        status: { type: 'string', readOnly: true },
        status_changed: { type: 'datetime', readOnly: true },
        outdated: { type: 'bool', readOnly: true },
        // The node's ports; a change may set the default values (parameters) of inputs only.
        ports: { type: 'json' },
        ui_collapsed: { type: 'bool', default: false },
        ...uiFields,
        progress: { type: 'number', readOnly: true, hidden: true },
        run_count: { type: 'int', readOnly: true, hidden: true },
        exception: { type: 'text', readOnly: true, hidden: true },
        last_run_id: { type: 'int', readOnly: true, hidden: true },
      },
      hooks: {
        async beforeCreate(values) {
          const fn = fnOf(values.func);
          if (!fn) {
            throw ApiError.badRequest(
              'unknown_function',
              'switchboards:errors.unknown_function',
              { name: String(values.func) },
              'func',
            );
          }
          const ports = nodePortsFrom(fn);
          if (values.ports !== undefined && values.ports !== null) {
            decodePortDefaults(ports, JSON.parse(String(values.ports)) as unknown, services);
          }
          values.ports = JSON.stringify(ports);
        },
        async beforeUpdate(row, changes, req) {
          if (changes.ports !== undefined) {
            const ports = (row.ports as NodePort[]).map((p) => ({ ...p }));
            decodePortDefaults(ports, changes.ports === null ? [] : (JSON.parse(String(changes.ports)) as unknown), services);
            changes.ports = JSON.stringify(ports);
            await markOutdated(req.manager, services, row.switchboard_id as number, { nodes: [row.id], includeSelf: true });
          }
          if (NODE_SEMANTIC.some((f) => f in changes)) changes.status_changed = new Date();
        },
        async serialize(rows, out, req) {
          const ids = rows.map((r) => r.id);
          const links = ids.length
            ? ((await req.manager.query(
                `SELECT id, node_id, frame_id, name, is_input, list_index, dict_key FROM switchboard_link WHERE node_id = ANY($1) ORDER BY id`,
                [ids],
              )) as Row[])
            : [];
          out.forEach((o, i) => {
            const row = rows[i];
            const fn = fnOf(row.func);
            o.func_verbose_name = fn ? textOf(fn.verbose_name, req.lang) : String(row.func);
            o.func_doc = fn ? textOf(fn.doc, req.lang) : '';
            o.func_available = !!fn;
            o.superuser_required = !!fn?.superuser_required;
            o.status_changed = new Date(row.status_changed as string).toISOString();
            o.links = links.filter((l) => l.node_id === row.id).map(linkJson);
            o.runinfo = {
              progress: Math.round(Number(row.progress) * 10) / 10,
              count: row.run_count,
              exception: row.exception,
            };
            o.last_run = row.last_run_id ? `/api/v1/noderun/${String(row.last_run_id)}/` : null;
          });
        },
      },
    },
    (row) => ({ status: row.status, ports: row.ports, ui_x: row.ui_x, ui_y: row.ui_y, ui_collapsed: row.ui_collapsed }),
  );
}

export function linkJson(l: Row): Record<string, unknown> {
  return {
    id: l.id,
    resource_uri: `${LINK_PATH}${l.id}/`,
    name: l.name,
    frame: `${FRAME_PATH}${String(l.frame_id)}/`,
    node: `${NODE_PATH}${String(l.node_id)}/`,
    is_input: l.is_input,
    list_index: l.list_index ?? null,
    dict_key: l.dict_key ?? null,
  };
}

/** Frames: typed lists of datums on the canvas; input (1) and output (2) frames are a workflow's parameters and results. */
export function frameResource(services: ServerServices): ResourceDefinition {
  return canvasKind(
    'frame',
    'FRAME',
    services,
    {
      table: 'switchboard_frame',
      label: { de: 'den Frame', en: 'frame' },
      description:
        'Frames of a switchboard: typed lists of datums that nodes read and write. PATCH `content` (a list of datum fields) replaces the items.',
      fields: {
        switchboard: switchboardField,
        content_type: { type: 'string', required: true, maxLength: 100, filter: true },
        storage_context: { type: 'json', nullable: true },
        dynamic_storage_context: { type: 'bool', default: false },
        frame_type: {
          type: 'int',
          default: 0,
          validate: (v) => ([0, 1, 2].includes(v as number) ? undefined : 'switchboards:errors.frame_type'),
        },
        name: { type: 'string', maxLength: 200, default: '', search: true },
        description: { type: 'text', default: '' },
        size: { type: 'int', readOnly: true },
        text_repr: { type: 'text', readOnly: true },
        content_visible: { type: 'bool', default: false },
        content_edit: { type: 'bool', default: false },
        ui_docked: { type: 'bool', default: false },
        ...uiFields,
        outdated: { type: 'bool', readOnly: true },
        content_hash: { type: 'string', readOnly: true, hidden: true },
        content: { type: 'json', virtual: true },
      },
      hooks: {
        async beforeCreate(values) {
          values.content_type = checkType(values.content_type, services);
          if (values.storage_context !== undefined && values.storage_context !== null)
            values.storage_context = JSON.stringify(values.storage_context);
          // spec 000 §9: hiding a frame also turns off editing.
          if (!values.content_visible) values.content_edit = false;
        },
        async beforeUpdate(row, changes, req) {
          if (changes.content_type !== undefined) {
            changes.content_type = checkType(changes.content_type, services);
            const [{ n }] = (await req.manager.query(`SELECT count(*)::int AS n FROM switchboard_link WHERE frame_id = $1`, [
              row.id,
            ])) as {
              n: number;
            }[];
            if (n > 0 && changes.content_type !== row.content_type) {
              throw ApiError.badRequest('frame_linked', 'switchboards:errors.frame_type_linked', {}, 'content_type');
            }
          }
          if (changes.storage_context !== undefined && changes.storage_context !== null)
            changes.storage_context = JSON.stringify(changes.storage_context);
          const visible = changes.content_visible ?? row.content_visible;
          if (!visible) changes.content_edit = false;
          if (FRAME_SEMANTIC.some((f) => f in changes))
            await markOutdated(req.manager, services, row.switchboard_id as number, { frames: [row.id] });
        },
        async serialize(rows, out) {
          out.forEach((o, i) => {
            const type = String(rows[i].content_type);
            o.content_type = `/api/v1/type/${type}/`;
            o.type_name = type;
            o.content_hash = rows[i].content_hash ? String(rows[i].content_hash).trim() : null;
            o.content_uri = `${FRAME_PATH}${rows[i].id}/content/`;
          });
        },
      },
    },
    async (row, virtuals, req) => {
      if (virtuals.content !== undefined) {
        Object.assign(row, await frameContentWrite(req.manager, services, row, virtuals.content));
        await markOutdated(req.manager, services, row.switchboard_id as number, { frames: [row.id] });
      }
      return {
        size: row.size,
        text_repr: row.text_repr,
        content_visible: row.content_visible,
        content_edit: row.content_edit,
        ui_x: row.ui_x,
        ui_y: row.ui_y,
        ui_docked: row.ui_docked,
      };
    },
  );
}

function checkType(value: unknown, services: ServerServices): string {
  const s = typeof value === 'string' ? value.trim() : '';
  const name = s.startsWith('/api/v1/type/') ? s.slice('/api/v1/type/'.length).replace(/\/$/, '') : s;
  if (!name || !services.types.type(name)) {
    throw ApiError.badRequest('invalid_field', 'switchboards:errors.unknown_type', { type: String(value) }, 'content_type');
  }
  return name;
}

/** Links: a frame to a node's port. Created checked (types, slots, cycles); never changed, only replaced. */
export function linkResource(services: ServerServices): ResourceDefinition {
  return canvasKind(
    'link',
    'LINK',
    services,
    {
      table: 'switchboard_link',
      label: { de: 'die Verbindung', en: 'link' },
      description:
        'Links between frames and node ports. A link to an input slot that is taken replaces the old link; a type mismatch or a cycle is refused with 400.',
      fields: {
        // Taken from the node; given only for checks.
        switchboard: { ...switchboardField, required: false },
        name: { type: 'string', required: true, createOnly: true, maxLength: 100 },
        node: { type: 'ref', column: 'node_id', refKind: 'node', required: true, createOnly: true, filter: true },
        frame: { type: 'ref', column: 'frame_id', refKind: 'frame', required: true, createOnly: true, filter: true },
        is_input: { type: 'bool', required: true, createOnly: true },
        list_index: { type: 'int', nullable: true, createOnly: true },
        dict_key: { type: 'string', nullable: true, createOnly: true, maxLength: 200 },
      },
      hooks: {
        async beforeCreate(values, req) {
          const replaced = await checkLink(req, services, values);
          for (const old of replaced) {
            await req.manager.query(`DELETE FROM switchboard_link WHERE id = $1`, [old]);
            publishLive(services, req.manager, {
              switchboard_id: values.switchboard_id as number,
              event: 'LINK_DELETE',
              resource_uri: `${LINK_PATH}${old}/`,
            });
          }
        },
        async beforeDelete(row, req) {
          await markOutdated(req.manager, services, row.switchboard_id as number, {
            nodes: row.is_input ? [row.node_id as number] : [],
            frames: row.is_input ? [] : [row.frame_id as number],
            includeSelf: true,
          });
        },
        async serialize(rows, out) {
          out.forEach((o, i) => Object.assign(o, linkJson(rows[i])));
        },
      },
    },
    async (row, _v, req) => {
      await markOutdated(req.manager, services, row.switchboard_id as number, {
        nodes: [row.node_id as number],
        includeSelf: true,
      });
      return undefined;
    },
  );
}

const NOTE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'b',
    'i',
    'u',
    's',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'a',
    'h1',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'hr',
  ],
  allowedAttributes: { a: ['href', 'title'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

/** A note's text (Markdown) as sanitised HTML: no scripts, handlers, styles or foreign schemes. */
export function noteHtml(text: string): string {
  return sanitizeHtml(marked.parse(text, { async: false }), NOTE_HTML);
}

/** Notes: text on the canvas, rendered as sanitised HTML. */
export function noteResource(services: ServerServices): ResourceDefinition {
  return canvasKind(
    'note',
    'NOTE',
    services,
    {
      table: 'switchboard_note',
      label: { de: 'die Notiz', en: 'note' },
      description: 'Notes on a switchboard canvas; `text` is Markdown, `html` the sanitised rendering.',
      fields: {
        switchboard: switchboardField,
        text: { type: 'text', default: '', maxLength: 20000 },
        ...uiFields,
      },
      hooks: {
        async serialize(rows, out) {
          out.forEach((o, i) => (o.html = noteHtml(String(rows[i].text))));
        },
      },
    },
    (row) => ({ text: row.text, ui_x: row.ui_x, ui_y: row.ui_y }),
  );
}
