import type { FunctionDescriptor, PortDescriptor } from '@werkbank/sdk/node';

import { FUNCTION_PATH } from '../common/switchboard-types';

export { FUNCTION_PATH };
/** spec 000 §10: functions list limit. */
export const FUNCTION_LIST_LIMIT = 1000;
/** spec 000 §5: a query filters only from this length on. */
export const MIN_SEARCH_LENGTH = 2;

export interface FunctionQuery {
  q?: string;
  input_type?: string;
  output_type?: string;
  /** One namespace or several, comma separated. */
  namespace?: string;
  favorites?: Set<string>;
  onlyFavorites?: boolean;
}

export interface TypeRelation {
  isAssignable(from: string, to: string): boolean;
}

/** The namespace of a dotted function name: its first segment. */
export function namespaceOf(name: string): string {
  return name.split('.')[0];
}

function text(value: Record<string, string>, lang: string): string {
  return value[lang] ?? value.en ?? Object.values(value)[0] ?? '';
}

/** How well a function's ports match the wanted types: 2 exact, 1 through the base chain, 0 none. */
function typeScore(ports: PortDescriptor[], wanted: string | undefined, accepts: (port: string) => boolean): number {
  if (!wanted) return 0;
  if (ports.some((p) => p.content_type === wanted)) return 2;
  return ports.some((p) => accepts(p.content_type)) ? 1 : 0;
}

/**
 * How well a function's texts match a query (lower case, at least MIN_SEARCH_LENGTH long); 0 when
 * they do not. From best: 5 the name (or one of its dotted segments) or a title is the query;
 * 4 one of them starts with it; 3 a word of a title starts with it; 2 the name or a title holds
 * it; 1 only the description does. Titles and descriptions count in every language.
 */
export function textScore(fn: FunctionDescriptor, needle: string): number {
  const names = [fn.id, ...fn.id.split('.')].map((n) => n.toLowerCase());
  const titles = Object.values(fn.verbose_name).map((v) => v.toLowerCase());
  const both = [...names, ...titles];
  if (both.some((t) => t === needle)) return 5;
  if (both.some((t) => t.startsWith(needle))) return 4;
  if (titles.some((t) => t.split(/[^\p{L}\p{N}]+/u).some((w) => w.startsWith(needle)))) return 3;
  if (both.some((t) => t.includes(needle))) return 2;
  return Object.values(fn.doc).some((d) => d.toLowerCase().includes(needle)) ? 1 : 0;
}

/**
 * The function list with the search rules of spec 000 §5: a query shorter than 2 characters does
 * not filter; matching is case-insensitive over name, verbose name and doc (both languages); a
 * query ending with '!' also includes hidden functions. Input and output type filters keep
 * functions with a port that accepts (input) or yields (output) the type, along the base chain.
 * Ranking (issue 14 item 14): how well the texts match (textScore: name and title before words of
 * the title before the description); among equals type matches first (exact before derived, and
 * for a query that names a type, functions with a port of that type), then shorter names, then by
 * name.
 */
export function searchFunctions(all: FunctionDescriptor[], query: FunctionQuery, types: TypeRelation): FunctionDescriptor[] {
  let q = (query.q ?? '').trim();
  const withHidden = q.endsWith('!');
  if (withHidden) q = q.slice(0, -1).trim();
  const needle = q.length >= MIN_SEARCH_LENGTH ? q.toLowerCase() : '';
  const namespaces = (query.namespace ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const scored: Array<{ fn: FunctionDescriptor; text: number; score: number }> = [];
  for (const fn of all) {
    if (fn.hidden && !withHidden) continue;
    if (namespaces.length && !namespaces.includes(namespaceOf(fn.id))) continue;
    if (query.onlyFavorites && !query.favorites?.has(fn.id)) continue;
    const inScore = typeScore(fn.inputs, query.input_type, (port) => types.isAssignable(query.input_type!, port));
    const outScore = typeScore(fn.outputs, query.output_type, (port) => types.isAssignable(port, query.output_type!));
    if (query.input_type && !inScore) continue;
    if (query.output_type && !outScore) continue;
    let queryTypeScore = 0;
    const text = needle ? textScore(fn, needle) : 0;
    if (needle) {
      if (!text) continue;
      if ([...fn.inputs, ...fn.outputs].some((p) => p.content_type.toLowerCase() === needle)) queryTypeScore = 1;
    }
    scored.push({ fn, text, score: inScore + outScore + queryTypeScore });
  }
  scored.sort(
    (a, b) => b.text - a.text || b.score - a.score || a.fn.id.length - b.fn.id.length || a.fn.id.localeCompare(b.fn.id),
  );
  return scored.map((s) => s.fn);
}

/** A port as replies carry it (spec 000 §3 Function: name, type, is_optional). */
export function portJson(p: PortDescriptor, isInput: boolean): Record<string, unknown> {
  return {
    name: p.name,
    content_type: p.content_type,
    type: `/api/v1/type/${p.content_type}/`,
    is_input: isInput,
    is_optional: !!p.is_optional,
    is_list: !!p.is_list,
    is_dict: !!p.is_dict,
    default_value: p.default_value ?? null,
  };
}

/** A function as the API replies it. */
export function functionJson(fn: FunctionDescriptor, lang: string, favored: boolean, plugin?: string): Record<string, unknown> {
  return {
    name: fn.id,
    resource_uri: `${FUNCTION_PATH}${fn.id}/`,
    namespace: namespaceOf(fn.id),
    version: fn.version ?? '1',
    verbose_name: text(fn.verbose_name, lang),
    doc: text(fn.doc, lang),
    inputs: fn.inputs.map((p) => portJson(p, true)),
    outputs: fn.outputs.map((p) => portJson(p, false)),
    favored,
    hidden: !!fn.hidden,
    superuser_required: !!fn.superuser_required,
    plugin: plugin ?? null,
  };
}
