import { Registry } from './registry';

/** An editor for objects whose resource address starts with `prefix` (spec 002 §2). */
export interface EditorDescriptor<C = unknown> {
  id: string;
  prefix: string;
  /** Higher wins among equally long prefixes. Default 0. */
  priority?: number;
  component: C;
}

export class UnknownEditorError extends Error {
  constructor(readonly address: string) {
    super(`UnknownEditor: ${address}`);
    this.name = 'UnknownEditorError';
  }
}

/**
 * Chooses the editor for a resource address, deterministically (STYLE §5): a configured
 * association (address prefix → editor id) wins; otherwise the longest matching prefix, then the
 * highest priority, then the lowest plugin id. No match throws 'UnknownEditor: {address}'.
 */
export class EditorRegistry<C = unknown> extends Registry<EditorDescriptor<C>> {
  private associations: Array<{ prefix: string; editorId: string }> = [];

  constructor() {
    super('editor');
  }

  associate(prefix: string, editorId: string): void {
    this.associations = [...this.associations.filter((a) => a.prefix !== prefix), { prefix, editorId }];
  }

  resolve(address: string): EditorDescriptor<C> {
    const assoc = this.associations
      .filter((a) => address.startsWith(a.prefix))
      .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    if (assoc) {
      const chosen = this.get(assoc.editorId);
      if (chosen) return chosen;
    }
    const candidates = this.owned().filter((e) => address.startsWith(e.item.prefix));
    if (!candidates.length) throw new UnknownEditorError(address);
    candidates.sort(
      (a, b) =>
        b.item.prefix.length - a.item.prefix.length ||
        (b.item.priority ?? 0) - (a.item.priority ?? 0) ||
        a.owner.localeCompare(b.owner) ||
        a.item.id.localeCompare(b.item.id),
    );
    return candidates[0].item;
  }
}
