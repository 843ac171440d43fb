import { type ResourceDefinition, type Row } from '@werkbank/sdk/node';
import { bulkRequests, FRAME_PATH, LINK_PATH, NODE_PATH } from './switchboard-access';
import { publishLive } from './live';
import { checkLink } from './links';
import { markOutdated } from './outdated';
import { canvasKind, switchboardField } from './canvas-kind';
import { SwitchboardsServices } from './switchboards-services';

/** Links: a frame to a node's port. Created checked (types, slots, cycles); never changed, only replaced. */
export function linkResource(services: SwitchboardsServices): ResourceDefinition {
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
      // A link of a switchboard being created at once has nothing downstream that ran.
      if (bulkRequests.has(req)) return undefined;
      await markOutdated(req.manager, services, row.switchboard_id as number, {
        nodes: [row.node_id as number],
        includeSelf: true,
      });
      return undefined;
    },
  );
}

/** A link as nodes and links serialise it. */
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
