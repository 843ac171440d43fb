import { ApiError, type FunctionDescriptor, type ResourceDefinition, type Row } from '@werkbank/sdk/node';
import { nodePortsFrom, type NodePort, decodePortDefaults } from './links';
import { markOutdated } from './outdated';
import { textOf } from './i18n-text';
import { canvasKind, switchboardField, uiFields } from './canvas-kind';
import { linkJson } from './link-resource';
import { SwitchboardsServices } from './switchboards-services';
import { exceptionText } from './run-message';

/** Fields whose change alters what a node produces (moves on the canvas do not). */
const NODE_SEMANTIC = ['ports'];

/** Nodes: one function each, with its ports (inputs carry the node's parameters as default values). */
export function nodeResource(services: SwitchboardsServices): ResourceDefinition {
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
        exception_i18n: { type: 'json', readOnly: true, hidden: true },
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
              exception: exceptionText(services, req.lang, row.exception, row.exception_i18n),
            };
            o.last_run = row.last_run_id ? `/api/v1/noderun/${String(row.last_run_id)}/` : null;
          });
        },
      },
    },
    (row) => ({ status: row.status, ports: row.ports, ui_x: row.ui_x, ui_y: row.ui_y, ui_collapsed: row.ui_collapsed }),
  );
}
