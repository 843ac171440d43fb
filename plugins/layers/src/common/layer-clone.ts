import type { Layer } from './layers-api';
import { legendLayerId } from './legend';

/** Fields a clone does not take over: identity, owner, counters, and the short name (it must be unique). */
const NOT_CLONED = new Set([
  'id',
  'resource_uri',
  'revision',
  'slug',
  'permissions',
  'user',
  'owner',
  'favored',
  'access',
  'tags',
  'persistent_size',
  'persistent_size_modified',
  'created',
  'modified',
]);

/** The body that creates a copy of `layer` named `name`, with the same piles in the same order. */
export function cloneBody(layer: Layer, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(layer)) if (!NOT_CLONED.has(k)) out[k] = v;
  out.name = name.slice(0, 200);
  // An uploaded legend is shared by its address (decision 0063); an address from before uploads is not taken over.
  if (legendLayerId(layer.legend ?? '') === undefined) delete out.legend;
  out.layerpiles = layer.layerpiles.map((p) => ({ depot: p.depot, name: p.name }));
  return out;
}
