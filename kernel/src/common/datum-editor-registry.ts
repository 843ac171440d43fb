import { Registry } from './registry';

/** A content type's editor. contentType '*' registers a generic fallback. */
export interface DatumEditorDescriptor<C = unknown> {
  id: string;
  contentType: string;
  /** Higher wins at the same level of the base chain. Default 0. */
  priority?: number;
  component: C;
}

export const GENERIC_CONTENT_TYPE = '*';

/**
 * Resolves a datum editor by content type (spec 002 §2 "Datum editor by content type"): walks the
 * type's base chain from the most specific type to the most general; at each level the highest
 * priority wins (then plugin id); if no level has one, the highest-ranked generic editor.
 */
export class DatumEditorRegistry<C = unknown> extends Registry<DatumEditorDescriptor<C>> {
  constructor() {
    super('datum editor');
  }

  resolve(contentType: string, baseChain: (type: string) => string[]): DatumEditorDescriptor<C> | undefined {
    const name = contentType.replace(/^\/api\/v1\/type\//, '').replace(/\/$/, '');
    for (const level of [...baseChain(name), GENERIC_CONTENT_TYPE]) {
      const found = this.owned()
        .filter((e) => e.item.contentType === level)
        .sort((a, b) => (b.item.priority ?? 0) - (a.item.priority ?? 0) || a.owner.localeCompare(b.owner));
      if (found.length) return found[0].item;
    }
    return undefined;
  }
}
