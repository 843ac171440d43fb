import { ApiError, type ResourceDefinition } from '@werkbank/sdk/node';
import { FRAME_PATH } from './switchboard-access';
import { markOutdated } from './outdated';
import { frameContentWrite } from './frame-write';
import { canvasKind, switchboardField, uiFields } from './canvas-kind';
import { SwitchboardsServices } from './switchboards-services';

/** The content columns of an empty frame. */
const EMPTY_CONTENT = { content_hash: null, size: 0, text_repr: '' };

/** Fields whose change alters what a frame produces (moves on the canvas do not). */
const FRAME_SEMANTIC = ['content_type', 'storage_context', 'dynamic_storage_context'];

/** Frames: typed lists of datums on the canvas; input (1) and output (2) frames are a workflow's parameters and results. */
export function frameResource(services: SwitchboardsServices): ResourceDefinition {
  return canvasKind(
    'frame',
    'FRAME',
    services,
    {
      table: 'switchboard_frame',
      label: { de: 'den Frame', en: 'frame' },
      description:
        'Frames of a switchboard: typed lists of datums that nodes read and write. PATCH `content` (a list of datum fields) replaces the items; a new `content_type` empties the frame (unless `content` for the new type comes along). `storage_context` is an object `{kind, …}` or null.',
      fields: {
        switchboard: switchboardField,
        content_type: { type: 'string', required: true, maxLength: 100, filter: true },
        // spec 001 §2.6: where the items are kept, `{kind, …}`; null is the default (the database).
        storage_context: {
          type: 'json',
          nullable: true,
          validate: (v) =>
            v && typeof v === 'object' && !Array.isArray(v) ? undefined : 'switchboards:errors.storage_context_shape',
        },
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
          // spec 000 §9: hiding a frame also turns off editing.
          if (!values.content_visible) values.content_edit = false;
        },
        async beforeUpdate(row, changes, req) {
          if (changes.content_type !== undefined) {
            changes.content_type = checkType(changes.content_type, services);
            // Under the switchboard's lock, as link checks are: no link can appear meanwhile.
            await req.manager.query(`SELECT id FROM switchboard WHERE id = $1 FOR UPDATE`, [row.switchboard_id]);
            const [{ n }] = (await req.manager.query(`SELECT count(*)::int AS n FROM switchboard_link WHERE frame_id = $1`, [
              row.id,
            ])) as {
              n: number;
            }[];
            if (n > 0 && changes.content_type !== row.content_type) {
              throw ApiError.badRequest('frame_linked', 'switchboards:errors.frame_type_linked', {}, 'content_type');
            }
            // spec 001 §2.6: a new data type empties the frame (as the dialog does); `content` sent
            // along is written afterwards, checked against the new type.
            if (changes.content_type !== row.content_type) Object.assign(changes, EMPTY_CONTENT);
          }
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
        Object.assign(row, await frameContentWrite(req, services, row, virtuals.content));
        await markOutdated(req.manager, services, row.switchboard_id as number, { frames: [row.id] });
      }
      return {
        size: row.size,
        text_repr: row.text_repr,
        content_hash: row.content_hash ? String(row.content_hash).trim() : null,
        content_visible: row.content_visible,
        content_edit: row.content_edit,
        ui_x: row.ui_x,
        ui_y: row.ui_y,
        ui_docked: row.ui_docked,
      };
    },
  );
}

/** A frame's content type from a type name or its address (`/api/v1/type/<name>/`); 400 for an unknown type. */
function checkType(value: unknown, services: SwitchboardsServices): string {
  const s = typeof value === 'string' ? value.trim() : '';
  const name = s.startsWith('/api/v1/type/') ? s.slice('/api/v1/type/'.length).replace(/\/$/, '') : s;
  if (!name || !services.types.type(name)) {
    throw ApiError.badRequest('invalid_field', 'switchboards:errors.unknown_type', { type: String(value) }, 'content_type');
  }
  return name;
}
