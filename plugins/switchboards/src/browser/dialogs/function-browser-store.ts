import { makeAutoObservable, runInAction, type ApiClient, type ListResponse } from '@werkbank/sdk/browser';
import { FUNCTION_PATH, typeName, type FunctionInfo } from '../../common/switchboard-types';

/** spec 000 §9: the function list loads 10 at a time, and 10 more on demand. */
export const FUNCTION_PAGE_SIZE = 10;
/** spec 000 §5, §9: a query filters from 2 characters on. */
export const MIN_QUERY_LENGTH = 2;
/** Typing pauses this long before the list reloads. */
export const QUERY_DEBOUNCE_MS = 250;

/**
 * The state of one function browser (spec 000 §2 "Function browser"): query, type filters,
 * favourites, namespaces, the loaded pages and the selected row. Each change of a filter reloads the
 * first page; a reply to an older query is dropped. Call dispose() when the browser unmounts.
 */
export class FunctionBrowserStore {
  query = '';
  inputType = '';
  outputType = '';
  favoritesOnly = false;
  namespaces: string[] = [];
  items: FunctionInfo[] = [];
  total = 0;
  loading = false;
  error: string | undefined = undefined;
  /** Index into items; -1 when there are none. */
  selected = -1;
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<FunctionBrowserStore, 'api' | 'seq' | 'timer' | 'current'>(this, {
      api: false,
      seq: false,
      timer: false,
      current: false,
    });
  }

  get hasMore(): boolean {
    return this.items.length < this.total;
  }

  get selectedItem(): FunctionInfo | undefined {
    return this.items[this.selected];
  }

  /** The query as the server gets it: spec 000 §5 ignores shorter ones (a trailing '!' is the server's). */
  get sentQuery(): string {
    const q = this.query.trim();
    return q.length >= MIN_QUERY_LENGTH ? q : '';
  }

  setQuery(query: string): void {
    const before = this.sentQuery;
    this.query = query;
    if (this.sentQuery === before) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => ((this.timer = undefined), void this.load(true)), QUERY_DEBOUNCE_MS);
  }

  /** Sets the type filters (names or type addresses; '' for none) and reloads. */
  setTypes(inputType: string, outputType: string): void {
    this.inputType = inputType && typeName(inputType);
    this.outputType = outputType && typeName(outputType);
    void this.load(true);
  }

  setFavoritesOnly(on: boolean): void {
    this.favoritesOnly = on;
    void this.load(true);
  }

  addNamespace(ns: string): void {
    if (!ns || this.namespaces.includes(ns)) return;
    this.namespaces = [...this.namespaces, ns];
    void this.load(true);
  }

  removeNamespace(ns: string): void {
    this.namespaces = this.namespaces.filter((n) => n !== ns);
    void this.load(true);
  }

  /**
   * Resolves once the list shows the current filters: a search still waiting for its debounce runs
   * now, a load under way is awaited (so Enter picks from the results of what was typed).
   */
  async settle(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.load(true);
    } else if (this.current) await this.current;
  }

  private current: Promise<void> | undefined = undefined;

  /** Loads the first page (reset) or the next one; failures land in `error`. */
  load(reset = true): Promise<void> {
    const p = this.fetchPage(reset);
    this.current = p;
    return p;
  }

  private async fetchPage(reset: boolean): Promise<void> {
    const seq = ++this.seq;
    this.loading = true;
    this.error = undefined;
    const query = {
      q: this.sentQuery || undefined,
      input_type: this.inputType || undefined,
      output_type: this.outputType || undefined,
      namespace: this.namespaces.join(',') || undefined,
      filter: this.favoritesOnly ? 'favorites' : undefined,
      offset: reset ? 0 : this.items.length,
      limit: FUNCTION_PAGE_SIZE,
    };
    try {
      const page = await this.api.get<ListResponse<FunctionInfo>>(FUNCTION_PATH, { query });
      if (seq !== this.seq) return;
      runInAction(() => {
        const known = reset ? [] : this.items;
        this.items = [...known, ...page.objects.filter((f) => !known.some((k) => k.name === f.name))];
        this.total = page.meta.total_count ?? this.total;
        if (reset) this.selected = this.items.length ? 0 : -1;
      });
    } catch (e) {
      if (seq === this.seq) runInAction(() => (this.error = (e as Error).message));
    } finally {
      if (seq === this.seq) runInAction(() => (this.loading = false));
    }
  }

  /** The next 10, unless all are loaded or a load runs. */
  async more(): Promise<void> {
    if (!this.hasMore || this.loading) return;
    await this.load(false);
  }

  /** Moves the selection by `delta` rows; past the last loaded row it loads the next page. */
  move(delta: number): void {
    if (!this.items.length) return;
    const next = this.selected + delta;
    if (next >= this.items.length && this.hasMore)
      void this.more().then(() => this.select(Math.min(next, this.items.length - 1)));
    this.select(Math.max(0, Math.min(next, this.items.length - 1)));
  }

  select(index: number): void {
    this.selected = index;
  }

  /**
   * Favours or unfavours (spec 000 §4: updates the function; the caller notifies). In the
   * favourites list an unfavoured function leaves the list. Rejects with the server's reason.
   */
  async toggleFavorite(fn: FunctionInfo): Promise<boolean> {
    const on = !fn.favored;
    const reply = await this.api.post<{ function?: FunctionInfo }>(`${fn.resource_uri}${on ? 'favor' : 'unfavor'}/`);
    const updated = { ...fn, ...reply?.function, favored: on };
    runInAction(() => {
      if (!on && this.favoritesOnly) {
        this.items = this.items.filter((f) => f.name !== fn.name);
        this.total = Math.max(0, this.total - 1);
        this.selected = Math.min(this.selected, this.items.length - 1);
      } else {
        this.items = this.items.map((f) => (f.name === fn.name ? updated : f));
      }
    });
    return on;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.seq++;
  }
}
