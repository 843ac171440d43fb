import { makeAutoObservable, runInAction, type ApiClient, type ListResponse } from '@werkbank/sdk/browser';
import { FUNCTION_PATH, type FunctionInfo } from '../../common/switchboard-types';

/** The type list's address (plugin types): names with their base chains. */
export const TYPE_LIST_PATH = '/api/v1/type/';
/** spec 000 §10: the function list's limit; the library shows every function on one page. */
const ALL = 1000;
/** Typing pauses this long before the list reloads. */
export const LIBRARY_DEBOUNCE_MS = 200;

/**
 * The function library's state (/library/): the catalogue's functions as the function list answers
 * them in the caller's language (the search rules of spec 000 §5 apply on the server), their
 * namespaces and each type's base chain. A reply to an older query is dropped. Call dispose() when
 * the screen unmounts.
 */
export class FunctionLibraryStore {
  functions: FunctionInfo[] | undefined = undefined;
  namespaces: string[] = [];
  baseChains = new Map<string, string[]>();
  query = '';
  namespace = '';
  failure: string | undefined = undefined;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<FunctionLibraryStore, 'api' | 'seq' | 'timer'>(this, { api: false, seq: false, timer: false });
  }

  /** A new query: the list reloads after a pause in typing. */
  setQuery(q: string): void {
    this.query = q;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.search(), LIBRARY_DEBOUNCE_MS);
  }

  setNamespace(ns: string): void {
    this.namespace = ns;
    void this.search();
  }

  /** Loads everything: namespaces, types and the functions (again after a language change). */
  async load(): Promise<void> {
    const [all, types] = await Promise.all([
      this.api.get<ListResponse<FunctionInfo>>(FUNCTION_PATH, { query: { limit: ALL } }).catch(() => undefined),
      this.api
        .get<ListResponse<{ name: string; base_chain?: string[] }>>(TYPE_LIST_PATH, { query: { limit: ALL } })
        .catch(() => undefined),
    ]);
    runInAction(() => {
      if (all) this.namespaces = [...new Set(all.objects.map((f) => f.namespace))].sort();
      if (types) this.baseChains = new Map(types.objects.map((t) => [t.name, t.base_chain ?? []]));
    });
    await this.search();
  }

  /** Loads the functions matching the query and namespace. */
  async search(): Promise<void> {
    const seq = ++this.seq;
    const query: Record<string, string | number> = { limit: ALL };
    if (this.query.trim()) query.q = this.query.trim();
    if (this.namespace) query.namespace = this.namespace;
    try {
      const page = await this.api.get<ListResponse<FunctionInfo>>(FUNCTION_PATH, { query });
      if (seq === this.seq)
        runInAction(() => {
          this.functions = page.objects;
          this.failure = undefined;
        });
    } catch (e) {
      if (seq === this.seq)
        runInAction(() => {
          this.failure = (e as Error).message;
          this.functions = [];
        });
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.seq++;
  }
}
