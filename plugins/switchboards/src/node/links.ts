import { ApiError, type FunctionDescriptor, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { canLink, type LinkVerdict, type TypeLookup } from '../common/can-link';
import { buildGraph, hasCycle, type GraphLink } from './graph';
import type { NodeLink } from './run-plan';
import { bulkRequests } from './switchboard-access';
import { SwitchboardsServices } from './switchboards-services';

/** A node's copy of a function port; inputs carry the node's parameter as `default_value`. */
export interface NodePort {
  name: string;
  content_type: string;
  is_input: boolean;
  is_optional: boolean;
  is_list: boolean;
  is_dict: boolean;
  default_value: Record<string, unknown> | null;
}

export function nodePortsFrom(fn: FunctionDescriptor): NodePort[] {
  const port = (p: FunctionDescriptor['inputs'][number], is_input: boolean): NodePort => ({
    name: p.name,
    content_type: p.content_type,
    is_input,
    is_optional: !!p.is_optional,
    is_list: !!p.is_list,
    is_dict: !!p.is_dict,
    default_value: p.default_value ?? null,
  });
  return [...fn.inputs.map((p) => port(p, true)), ...fn.outputs.map((p) => port(p, false))];
}

/**
 * Applies `[{name, default_value}]` to the inputs among `ports`: each value must be datum fields
 * of the port's type (null clears it). Anything else is a 400 naming the port.
 */
export function decodePortDefaults(ports: NodePort[], value: unknown, services: SwitchboardsServices): void {
  if (!Array.isArray(value)) throw ApiError.badRequest('invalid_field', 'switchboards:errors.ports_shape', {}, 'ports');
  for (const [i, entry] of value.entries()) {
    const e = entry as Record<string, unknown> | null;
    if (!e || typeof e !== 'object' || typeof e.name !== 'string') {
      throw ApiError.badRequest('invalid_field', 'switchboards:errors.ports_shape', {}, `ports[${i}]`);
    }
    const port = ports.find((p) => p.name === e.name);
    if (!port) throw ApiError.badRequest('unknown_port', 'switchboards:errors.unknown_port', { name: e.name }, `ports[${i}]`);
    if (!('default_value' in e)) continue;
    if (!port.is_input)
      throw ApiError.badRequest('invalid_field', 'switchboards:errors.output_default', { name: e.name }, `ports[${i}]`);
    const dv = e.default_value;
    if (dv === null) {
      port.default_value = null;
      continue;
    }
    if (typeof dv !== 'object' || Array.isArray(dv)) {
      throw ApiError.badRequest(
        'invalid_value',
        'switchboards:errors.default_shape',
        { name: e.name },
        `ports[${i}].default_value`,
      );
    }
    const problem = services.datumTypes.validate(port.content_type, dv as Record<string, unknown>);
    if (problem) {
      throw ApiError.badRequest(
        'invalid_value',
        'switchboards:errors.default_invalid',
        { name: e.name, type: port.content_type },
        `ports[${i}].default_value${problem.field ? `.${problem.field}` : ''}`,
      );
    }
    port.default_value = dv as Record<string, unknown>;
  }
}

/**
 * Checks a new link (values as decoded: node_id, frame_id, name, is_input, list_index, dict_key)
 * and completes it (switchboard_id, list_index). Returns the ids of links it replaces: the link in
 * the same input slot, or the link of another writer of the same frame (a frame has one writer).
 * Refuses with 400 and a reason the canvas can show: different switchboards, an unknown port, a
 * type mismatch, slot rules of list and dict ports, or a cycle.
 */
export async function checkLink(
  req: ResourceRequest,
  services: SwitchboardsServices,
  values: Record<string, unknown>,
): Promise<number[]> {
  const m = req.manager;
  const [node] = (await m.query(`SELECT id, switchboard_id, func, ports FROM switchboard_node WHERE id = $1`, [
    values.node_id,
  ])) as Row[];
  const [frame] = (await m.query(`SELECT id, switchboard_id, content_type FROM switchboard_frame WHERE id = $1`, [
    values.frame_id,
  ])) as Row[];
  if (!node) throw ApiError.badRequest('invalid_field', 'switchboards:errors.link_node', {}, 'node');
  if (!frame) throw ApiError.badRequest('invalid_field', 'switchboards:errors.link_frame', {}, 'frame');
  if (node.switchboard_id !== frame.switchboard_id || node.switchboard_id !== values.switchboard_id) {
    throw ApiError.badRequest('link_switchboards', 'switchboards:errors.link_switchboards', {}, 'frame');
  }
  // One link change at a time per switchboard: two links checked side by side could close a cycle.
  await m.query(`SELECT id FROM switchboard WHERE id = $1 FOR UPDATE`, [node.switchboard_id]);
  const isInput = values.is_input === true;
  const port = (node.ports as NodePort[]).find((p) => p.name === values.name && p.is_input === isInput);
  if (!port) {
    throw ApiError.badRequest(
      'unknown_port',
      isInput ? 'switchboards:errors.unknown_input' : 'switchboards:errors.unknown_output',
      { name: String(values.name) },
      'name',
    );
  }
  const frameType = String(frame.content_type);
  const verdict = canLink(services.types, frameType, port, {
    list_index: values.list_index as number | null | undefined,
    dict_key: values.dict_key as string | null | undefined,
  });
  if (!verdict.ok) throw linkRefusal(verdict, port, frameType);
  // In bulk (import) only the links this one may replace matter; the cycle check runs once at the end.
  const bulk = bulkRequests.has(req);
  const links = (
    bulk
      ? await m.query(
          `SELECT id, node_id, frame_id, name, is_input, list_index, dict_key FROM switchboard_link
            WHERE (node_id = $1 AND is_input) OR (frame_id = $2 AND NOT is_input)`,
          [node.id, frame.id],
        )
      : await m.query(
          `SELECT id, node_id, frame_id, name, is_input, list_index, dict_key FROM switchboard_link WHERE switchboard_id = $1`,
          [node.switchboard_id],
        )
  ) as Row[];
  // A list input without a position takes the next free one.
  if (isInput && port.is_list && values.list_index == null) {
    const taken = links
      .filter((l) => l.is_input && l.node_id === node.id && l.name === port.name)
      .map((l) => Number(l.list_index));
    values.list_index = taken.length ? Math.max(...taken) + 1 : 0;
  }
  const replaced = links
    .filter((l) =>
      isInput
        ? l.is_input &&
          l.node_id === node.id &&
          l.name === port.name &&
          (l.list_index ?? null) === (values.list_index ?? null) &&
          (l.dict_key ?? null) === (values.dict_key ?? null)
        : !l.is_input && l.frame_id === frame.id,
    )
    .map((l) => l.id);
  const after: GraphLink[] = [
    ...links
      .filter((l) => !replaced.includes(l.id))
      .map((l) => ({ node_id: l.node_id as number, frame_id: l.frame_id as number, is_input: !!l.is_input })),
    { node_id: node.id, frame_id: frame.id, is_input: isInput },
  ];
  // A node reading the frame it writes is a cycle of one.
  if (after.some((l) => l.node_id === node.id && l.frame_id === frame.id && l.is_input !== isInput)) {
    throw ApiError.badRequest('link_cycle', 'switchboards:errors.link_cycle', {}, 'frame');
  }
  if (bulk) return replaced;
  const nodeIds = (await m.query(`SELECT id FROM switchboard_node WHERE switchboard_id = $1`, [node.switchboard_id])) as Row[];
  if (
    hasCycle(
      buildGraph(
        nodeIds.map((n) => n.id),
        after,
      ),
    )
  ) {
    throw ApiError.badRequest('link_cycle', 'switchboards:errors.link_cycle', {}, 'frame');
  }
  return replaced;
}

/**
 * The 400 for a link canLink refused, in the user's language: the reason is canLink's, the message
 * names the port and both types.
 */
export function linkRefusal(verdict: Exclude<LinkVerdict, { ok: true }>, port: NodePort, frameType: string): ApiError {
  const dir = port.is_input ? 'input' : 'output';
  const params = { frame: frameType, port: port.name, type: port.content_type, name: port.name };
  switch (verdict.reason) {
    case 'type_mismatch':
      return ApiError.badRequest('type_mismatch', `switchboards:errors.type_mismatch_${dir}`, params, verdict.field);
    case 'unknown_type':
      return ApiError.badRequest('unknown_type', 'switchboards:errors.link_unknown_type', params, verdict.field);
    default:
      return ApiError.badRequest('invalid_field', `switchboards:errors.${verdict.reason}`, params, verdict.field);
  }
}

/**
 * Checks the links of the nodes about to run against the link rule again: a link saved under
 * other types (a type plugin removed since, a node's ports changed) refuses the run with the 400
 * the link would get today, instead of handing a function data of a type it does not take.
 */
export function checkRunLinks(types: TypeLookup, nodes: Row[], links: NodeLink[]): void {
  for (const node of nodes) {
    const ports = node.ports as NodePort[];
    for (const l of links.filter((x) => x.node_id === node.id)) {
      const port = ports.find((p) => p.name === l.name && p.is_input === l.is_input);
      if (!port) continue;
      const verdict = canLink(types, l.type, port, { list_index: l.list_index, dict_key: l.dict_key });
      if (!verdict.ok) throw linkRefusal(verdict, port, l.type);
    }
  }
}
