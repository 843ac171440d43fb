import { Kernel, PluginLoadError, Registry, type Owned, type PluginEntry, type Registered } from '@werkbank/kernel';
import { EntityContribution, type EntityDescriptor, type ResourceDefinition } from '@werkbank/sdk/node';
import type { EntitySchema } from 'typeorm';
import { basePath } from './resources/field-codec';

/**
 * The plugins' entity sets, collected before the database opens: the modules are loaded into a
 * scratch kernel that has no services, so an entity contribution that injects one fails here,
 * named, instead of reading a service that does not exist yet.
 */
export function collectEntities(entries: PluginEntry[], log: (m: string) => void): Owned<EntityDescriptor>[] {
  const scratch = new Kernel({ log });
  try {
    scratch.load(entries);
    const sets = new Registry<EntityDescriptor>('entity set');
    try {
      scratch.collect(EntityContribution, sets, (c, s) => c.registerEntities(s));
    } catch (e) {
      throw new PluginLoadError(
        `An entity contribution failed before the database was opened (entity sets must be plain data and inject no service): ${(e as Error).message}`,
        [],
      );
    }
    return sets.owned();
  } finally {
    scratch.dispose();
  }
}

function tableOf(schema: EntitySchema): string {
  return schema.options.tableName ?? schema.options.name;
}

const who = (owner: string) => (owner === 'server' ? 'the Werkbank core' : `plugin '${owner}'`);
const refuse = (what: string, first: Owned<unknown>, second: Owned<unknown>) =>
  new PluginLoadError(`${what}: claimed by ${who(first.owner)} and again by ${who(second.owner)}`, [first.owner, second.owner]);

/** Remembers who claimed a name first; a second claimant from another plugin is refused. */
class Claims {
  private readonly seen = new Map<string, Owned<unknown>>();
  claim(name: string, what: string, owned: Owned<unknown>, samePluginMayRepeat = true): void {
    const first = this.seen.get(name);
    if (!first) {
      this.seen.set(name, owned);
      return;
    }
    if (first.owner === owned.owner && samePluginMayRepeat) return;
    throw refuse(what, first, owned);
  }
}

export interface ClashSources {
  entities: Owned<EntityDescriptor>[];
  resources: Registry<ResourceDefinition>;
  /** Every registry whose ids must be `<plugin-id>.<name>` (functions and datum types use the spec's names). */
  namespaced: Registry<Registered>[];
}

/**
 * Refuses at start-up what would make one plugin take over another's: two resources of one kind
 * or address, one table claimed by two plugins (resources and entity schemas), ids outside the
 * contributing plugin's namespace. Each error names both plugins (decision 0024).
 */
export function checkClashes(sources: ClashSources): void {
  const kinds = new Claims();
  const paths = new Claims();
  const tables = new Claims();
  for (const owned of sources.resources.owned()) {
    kinds.claim(owned.item.kind, `Resource kind '${owned.item.kind}'`, owned, false);
    paths.claim(basePath(owned.item), `Resource address '${basePath(owned.item)}'`, owned, false);
    tables.claim(owned.item.table, `Table '${owned.item.table}'`, owned);
  }
  for (const owned of sources.entities)
    for (const schema of owned.item.entities) tables.claim(tableOf(schema), `Table '${tableOf(schema)}'`, owned);
  for (const registry of sources.namespaced)
    for (const { item, owner } of registry.owned()) {
      if (owner === 'server' || item.id.startsWith(`${owner}.`)) continue;
      throw new PluginLoadError(
        `Plugin '${owner}' registered ${registry.kind} '${item.id}': ids must start with the plugin id ('${owner}.')`,
        [owner],
      );
    }
}

/** A route's method and path with parameter names erased, so `/x/:id/` and `/x/:key/` are one route. */
export function routeKey(method: string, path: string): string {
  return `${method} ${path.replace(/:[A-Za-z0-9_]+/g, ':_')}`;
}

/**
 * Records which plugin mounted which route (method and path) and refuses a second plugin that
 * mounts the same one. `layers` are @koa/router's layers added by `owner`'s mount.
 */
export class RouteClaims {
  private readonly claims = new Claims();
  add(owner: string, layers: Array<{ path: string | RegExp; methods: string[] }>): void {
    for (const layer of layers)
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        const key = routeKey(method, String(layer.path));
        this.claims.claim(key, `Route ${key}`, { item: key, owner });
      }
  }
}
