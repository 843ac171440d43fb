import { createHash } from 'node:crypto';
import { canonicalJson, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import type { NodePort } from './links';

/** A link of a node with its frame's current state, as the engine reads it. */
export interface NodeLink {
  /** The node the link belongs to (0 when the rows are one node's). */
  node_id: number;
  name: string;
  is_input: boolean;
  list_index: number | null;
  dict_key: string | null;
  frame_id: number;
  hash: string | null;
  type: string;
}

/** One input frame of a run: which port (slot) it fed and its content hash. */
export interface InputRef {
  port: string;
  index: number | null;
  key: string | null;
  frame_id: number | null;
  hash: string | null;
}

/** One output frame a run wrote, with the hash of what it wrote. */
export interface OutputRef {
  port: string;
  frame_id: number;
  hash: string;
}

/** What identifies a node's work: its inputs, its parameters, and a required input left open. */
export interface RunInputs {
  inputs: InputRef[];
  parameters: Record<string, unknown>;
  /** The first required input without a link and without a value. */
  missing?: string;
}

const hashOf = (h: unknown) => (h ? String(h).trim() : null);

/** Normalises link rows from SQL (jsonb or columns). */
export function nodeLinks(rows: Array<Record<string, unknown>>): NodeLink[] {
  return rows.map((l) => ({
    node_id: Number(l.node_id ?? 0),
    name: String(l.name),
    is_input: !!l.is_input,
    list_index: (l.list_index as number | null) ?? null,
    dict_key: (l.dict_key as string | null) ?? null,
    frame_id: Number(l.frame_id),
    hash: hashOf(l.hash ?? l.content_hash),
    type: String(l.type ?? l.content_type ?? 'any'),
  }));
}

/**
 * The inputs of a node (in a fixed order: port, slot index, key) and its parameters (the values
 * of inputs without a link). Both the start of an execution and the run itself compute the run key
 * from this, so they agree.
 */
export function runInputs(ports: NodePort[], links: NodeLink[]): RunInputs {
  const inputs: InputRef[] = links
    .filter((l) => l.is_input)
    .map((l) => ({ port: l.name, index: l.list_index, key: l.dict_key, frame_id: l.frame_id, hash: l.hash }))
    .sort(
      (a, b) =>
        (a.port < b.port ? -1 : a.port > b.port ? 1 : 0) ||
        (a.index ?? -1) - (b.index ?? -1) ||
        (a.key ?? '').localeCompare(b.key ?? ''),
    );
  const parameters: Record<string, unknown> = {};
  let missing: string | undefined;
  for (const p of ports) {
    if (!p.is_input || inputs.some((i) => i.port === p.name)) continue;
    if (p.default_value) parameters[p.name] = p.default_value;
    else if (!p.is_optional && !p.is_list && !p.is_dict) missing ??= p.name;
  }
  return { inputs, parameters, missing };
}

/** The run key of a node: function name and version, parameters, and the content of its inputs. */
export function runKey(fn: { id: string; version?: string }, parameters: Record<string, unknown>, inputs: InputRef[]): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        func: fn.id,
        version: fn.version ?? '1',
        parameters,
        inputs: inputs.map((i) => [i.port, i.index, i.key, i.hash]),
      }),
    )
    .digest('hex');
}

/** The last successful run of a node: its key and what it wrote. */
export interface PreviousRun {
  run_key: string | null;
  outputs: OutputRef[] | null;
}

/** True when the last successful run had this key and every output frame still holds what it wrote. */
export function unchanged(prev: PreviousRun | null | undefined, key: string, links: NodeLink[]): boolean {
  if (!prev || hashOf(prev.run_key) !== key) return false;
  const wrote = prev.outputs ?? [];
  return links
    .filter((l) => !l.is_input)
    .every((l) => {
      const w = wrote.find((o) => o.frame_id === l.frame_id && o.port === l.name);
      return !!w && l.hash === w.hash;
    });
}

/** What the function receives per port (contents by hash). */
export function functionInputs(
  ports: NodePort[],
  run: RunInputs,
  contents: Map<string, FrameItems>,
  onMissing: (port: string) => never,
): FunctionInputs {
  const itemsOf = (ref: InputRef): FrameItems => {
    if (!ref.hash) return [];
    return contents.get(ref.hash) ?? onMissing(ref.port);
  };
  const out: FunctionInputs = {};
  for (const p of ports.filter((x) => x.is_input)) {
    const refs = run.inputs.filter((i) => i.port === p.name);
    if (p.is_list) out[p.name] = refs.map(itemsOf);
    else if (p.is_dict) out[p.name] = Object.fromEntries(refs.map((r) => [r.key ?? '', itemsOf(r)]));
    else if (refs.length) out[p.name] = itemsOf(refs[0]);
    else if (run.parameters[p.name]) out[p.name] = [run.parameters[p.name] as Record<string, unknown>];
    else out[p.name] = undefined;
  }
  return out;
}
