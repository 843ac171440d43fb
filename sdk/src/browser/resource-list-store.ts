import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient, ListResponse } from '@werkbank/kernel/browser';

export interface ListObject {
  id: number;
  resource_uri: string;
}

/** spec 000 §4: a load while a load is running is rejected with this error's message. */
export const IS_LOADING = 'isLoading';

export interface ListQuery {
  q?: string;
  order_by?: string;
  filter?: string;
  [param: string]: string | undefined;
}

/** The `after` cursor of a list reply's `meta.next` address; undefined when there is none. */
export function cursorOf(next: string | null | undefined): string | undefined {
  if (!next) return undefined;
  return new URLSearchParams(next.split('?')[1] ?? '').get('after') ?? undefined;
}

/**
 * The state of one list screen: query, filters, the loaded pages, selection. Infinite scroll
 * (issue 15): the first page is asked with its `total_count`; every further page behind the cursor
 * of the previous one (`after`, from `meta.next`) and without a count (`count=false`), so a page
 * deep in a long list costs what the first one does. A list that gives no `meta.next` is paged by
 * offset.
 */
export class ResourceListStore<T extends ListObject = ListObject> {
  items: T[] = [];
  total = 0;
  isLoading = false;
  error: string | undefined = undefined;
  query: ListQuery = {};
  selected = new Set<number>();
  /** The next page's cursor; null when the last page is loaded; undefined when the list gives none. */
  private next: string | null | undefined = undefined;
  private controller: AbortController | undefined = undefined;

  constructor(
    private readonly api: ApiClient,
    readonly path: string,
    readonly pageSize = 20,
  ) {
    makeAutoObservable<ResourceListStore<T>, 'api' | 'controller'>(this, { api: false, controller: false });
  }

  get hasMore(): boolean {
    if (this.next !== undefined) return this.next !== null;
    return this.items.length < this.total;
  }

  setQuery(patch: ListQuery): void {
    this.query = { ...this.query, ...patch };
  }

  /**
   * Loads the first page (reset) or the next one. spec 000 §4: a load while a load runs is rejected
   * with the error 'isLoading'. Use reload() when the query changed and the running load is stale.
   */
  async load(reset = true): Promise<void> {
    if (this.isLoading) throw new Error(IS_LOADING);
    const controller = new AbortController();
    this.controller = controller;
    this.isLoading = true;
    this.error = undefined;
    try {
      const query: Record<string, string | number> = Object.fromEntries(
        Object.entries(this.query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
      );
      query.limit = this.pageSize;
      if (reset) query.offset = 0;
      else if (this.next) Object.assign(query, { after: this.next, count: 'false' });
      else query.offset = this.items.length;
      const page = await this.api.get<ListResponse<T>>(this.path, { query, signal: controller.signal });
      if (controller.signal.aborted) return;
      runInAction(() => {
        this.items = reset ? page.objects : [...this.items, ...page.objects];
        if (page.meta.total_count !== null) this.total = page.meta.total_count;
        this.next = page.meta.next === undefined ? undefined : (cursorOf(page.meta.next) ?? null);
        if (reset) this.selected = new Set([...this.selected].filter((id) => page.objects.some((o) => o.id === id)));
      });
    } catch (e) {
      if (controller.signal.aborted) return;
      runInAction(() => (this.error = (e as Error).message));
      throw e;
    } finally {
      if (this.controller === controller) runInAction(() => (this.isLoading = false));
    }
  }

  /** Abandons a running load (its result is dropped) and loads the first page for the current query. */
  async reload(): Promise<void> {
    if (this.controller && this.isLoading) {
      this.controller.abort();
      this.isLoading = false;
    }
    await this.load(true);
  }

  /** Searches: sets `q` and loads the first page anew (the search bar's Enter, reset and Escape). */
  async search(q: string): Promise<void> {
    this.setQuery({ q });
    await this.reload();
  }

  /** Next page for infinite scroll; does nothing when all are loaded or a load runs. */
  async loadMore(): Promise<void> {
    if (!this.hasMore || this.isLoading) return;
    await this.load(false);
  }

  toggleSelected(id: number): void {
    const next = new Set(this.selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    this.selected = next;
  }

  selectAll(): void {
    this.selected = new Set(this.items.map((i) => i.id));
  }

  clearSelection(): void {
    this.selected = new Set();
  }

  replace(item: T): void {
    this.items = this.items.map((i) => (i.id === item.id ? item : i));
  }

  removeLocal(id: number): void {
    this.items = this.items.filter((i) => i.id !== id);
    this.total = Math.max(0, this.total - 1);
  }

  get selectedItems(): T[] {
    return this.items.filter((i) => this.selected.has(i.id));
  }
}
