import {
  ApiError,
  type FieldSpec,
  type ResourceDefinition,
  type ResourceRequest,
  type Row,
  type SelectQueryBuilder,
} from '@werkbank/sdk/node';
import { canvasFor, definitionOf, onceInBulk, SWITCHBOARD_PATH } from './switchboard-access';
import { publishLive, type LiveEvent } from './live';
import { SwitchboardsServices } from './switchboards-services';

/** Lists and objects of nodes, frames, links and notes show only those of readable switchboards. */
function readableSwitchboards(qb: SelectQueryBuilder<Row>, req: ResourceRequest): void {
  const def = definitionOf(req, 'switchboard');
  const sub = qb.subQuery().select('sb.id').from(def.table, 'sb');
  req.services.applyReadable(sub as unknown as SelectQueryBuilder<Row>, def, req, 'sb');
  qb.andWhere(`t.switchboard_id IN ${sub.getQuery()}`);
  qb.setParameters(sub.getParameters());
}

/** A canvas object's switchboard: given at creation, never changed, a filter of lists. */
export const switchboardField: FieldSpec = {
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
    const list = await onceInBulk(req, `access:${id}`, async () => {
      const sb = await req.services.loadReadable(def, id, req);
      const out = sb ? ['read'] : [];
      if (sb && (await req.services.mayAccess(def, sb, req, 'write'))) out.push('write');
      if (sb && (await req.services.mayAccess(def, sb, req, 'execute'))) out.push('execute');
      return out;
    });
    access.set(id, list);
  }
  out.forEach((o, i) => {
    o.access = access.get(rows[i].switchboard_id as number) ?? [];
    o.switchboard = `${SWITCHBOARD_PATH}${String(rows[i].switchboard_id)}/`;
  });
}

/** Requests in the middle of creating an object (beforeCreate → afterWrite of the same call). */
const creating = new WeakSet<ResourceRequest>();

/** After a canvas object was written: the fields an UPDATE announces (none for a creation). */
export type OnWritten = (
  row: Row,
  virtuals: Record<string, unknown>,
  req: ResourceRequest,
  created: boolean,
) => Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined;

/** Common parts of the four kinds that live on a switchboard's canvas. */
export function canvasKind(
  kind: 'node' | 'frame' | 'link' | 'note',
  event: 'NODE' | 'FRAME' | 'LINK' | 'NOTE',
  services: SwitchboardsServices,
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
        await canvasFor(req, values.switchboard_id as number);
        await hooks.beforeCreate?.(values, req);
        creating.add(req);
      },
      async beforeUpdate(row, changes, req) {
        await canvasFor(req, row.switchboard_id as number);
        await hooks.beforeUpdate?.(row, changes, req);
      },
      async beforeDelete(row, req) {
        await canvasFor(req, row.switchboard_id as number);
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

/** The position of an object on the canvas. */
export const uiFields: Record<string, FieldSpec> = {
  ui_x: { type: 'number', default: 0 },
  ui_y: { type: 'number', default: 0 },
};
