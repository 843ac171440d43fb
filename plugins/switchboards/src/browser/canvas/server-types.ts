import { makeAutoObservable, runInAction, type ApiClient, type ListResponse } from '@werkbank/sdk/browser';
import { ANY_TYPE } from '@werkbank/sdk';
import type { TypeLookup } from '../../common/can-link';

/** GET /api/v1/type/ (docs/api.md "type"). */
const TYPE_LIST_PATH = '/api/v1/type/';

/**
 * The datum types as the server knows them, for the link rule on the canvas (canLink): plugins may
 * register a type on the server only (geodata's live datasets), and the canvas must not refuse
 * what the server accepts. Until the list has loaded (or when it cannot be had), the browser's own
 * type registry answers.
 */
export class ServerTypes implements TypeLookup {
  private chains = new Map<string, string[]>();

  constructor(private readonly fallback: TypeLookup) {
    makeAutoObservable<ServerTypes, 'fallback'>(this, { fallback: false });
  }

  /** Loads the server's types; a failure keeps the browser's. */
  async load(api: ApiClient): Promise<void> {
    try {
      const list = await api.get<ListResponse<{ name: string; base_chain?: string[] }>>(TYPE_LIST_PATH, {
        query: { limit: 1000 },
      });
      runInAction(() => (this.chains = new Map(list.objects.map((t) => [t.name, t.base_chain ?? [t.name]]))));
    } catch {
      // The browser's registry answers.
    }
  }

  type(name: string): unknown {
    return this.chains.get(name) ?? this.fallback.type(name);
  }

  isAssignable(from: string, to: string): boolean {
    const chain = this.chains.get(from);
    if (!chain) return this.fallback.isAssignable(from, to);
    return to === ANY_TYPE || chain.includes(to);
  }
}
