import { Disposable } from './disposable';
import { Emitter } from './emitter';

export interface Registered {
  /** Namespaced id: `<plugin-id>.<kebab-name>` (STYLE §4). */
  id: string;
}

export interface Owned<T> {
  item: T;
  /** The plugin that registered the item. */
  owner: string;
}

export class DuplicateRegistrationError extends Error {
  constructor(kind: string, id: string, first: string, second: string) {
    super(`Duplicate ${kind} '${id}': registered by plugin '${first}' and again by plugin '${second}'`);
    this.name = 'DuplicateRegistrationError';
  }
}

/**
 * A registry of contributed items keyed by id. `add` throws on a duplicate id and names both
 * plugins; it returns a Disposable that removes the item again.
 */
export class Registry<T extends Registered> implements Disposable {
  protected readonly entries = new Map<string, Owned<T> & { handle?: Disposable }>();
  private readonly onDidChangeEmitter = new Emitter<void>();
  readonly onDidChange = this.onDidChangeEmitter.event;

  constructor(readonly kind: string) {}

  add(item: T, owner = 'unknown'): Disposable {
    const existing = this.entries.get(item.id);
    if (existing) throw new DuplicateRegistrationError(this.kind, item.id, existing.owner, owner);
    const entry: Owned<T> & { handle?: Disposable } = { item, owner };
    this.entries.set(item.id, entry);
    this.onDidChangeEmitter.fire();
    entry.handle = Disposable.create(() => {
      if (this.entries.get(item.id) === entry) {
        this.entries.delete(item.id);
        this.onDidChangeEmitter.fire();
      }
    });
    return entry.handle;
  }

  /** Removes everything registered (each registration counts as disposed) and ends onDidChange. */
  dispose(): void {
    for (const entry of [...this.entries.values()]) entry.handle?.dispose();
    this.onDidChangeEmitter.dispose();
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.item;
  }

  ownerOf(id: string): string | undefined {
    return this.entries.get(id)?.owner;
  }

  all(): T[] {
    return [...this.entries.values()].map((e) => e.item);
  }

  owned(): Owned<T>[] {
    return [...this.entries.values()].map(({ item, owner }) => ({ item, owner }));
  }
}

/** The view of a registry a contribution receives: `add` records the contributing plugin. */
export interface RegistrySink<T> {
  add(item: T): Disposable;
}

export function sinkFor<T extends Registered>(registry: Registry<T>, owner: string): RegistrySink<T> {
  return { add: (item) => registry.add(item, owner) };
}
