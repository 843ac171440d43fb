import { makeAutoObservable, runInAction, type ApiClient } from '@werkbank/sdk/browser';
import type { FrameItem } from './frame-kind';

/** Items per content page (GET {frame}content/, at most 1000). */
export const CONTENT_PAGE = 100;

interface ContentPage {
  objects: FrameItem[];
  meta: { offset: number; limit: number; total_count: number };
  content_hash: string | null;
}

/** What a per-item call replies (docs/api.md "frame"). */
interface ItemReply {
  item?: FrameItem;
  frame: { size: number; content_hash: string; text_repr: string };
}

/**
 * A frame's items as the dialog shows them (docs/api.md "frame"): loaded page by page from the
 * start, changed one item at a time. Every change names the content it is based on
 * (`content_hash`), so it never lands on another item than the one shown; `onDidWrite` runs after
 * each change the server accepted.
 */
export class FrameContentStore {
  items: FrameItem[] = [];
  total = 0;
  contentHash: string | null = null;
  loading = false;
  error: string | undefined = undefined;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly api: ApiClient,
    readonly frameUri: string,
    private readonly onDidWrite: () => void = () => undefined,
  ) {
    makeAutoObservable<FrameContentStore, 'api' | 'pending' | 'onDidWrite'>(this, {
      api: false,
      pending: false,
      onDidWrite: false,
    });
  }

  get hasMore(): boolean {
    return this.items.length < this.total;
  }

  /** Loads the next page (one request at a time; later calls wait for the running one). */
  loadMore(): Promise<void> {
    if (this.pending) return this.pending;
    const offset = this.items.length;
    this.loading = true;
    this.pending = this.api
      .get<ContentPage>(`${this.frameUri}content/`, { query: { offset, limit: CONTENT_PAGE } })
      .then(
        (page) =>
          runInAction(() => {
            this.items = [...this.items.slice(0, offset), ...page.objects];
            this.total = page.meta.total_count;
            this.contentHash = page.content_hash;
            this.error = undefined;
          }),
        (e: Error) => runInAction(() => void (this.error = e.message)),
      )
      .finally(() =>
        runInAction(() => {
          this.loading = false;
          this.pending = undefined;
        }),
      );
    return this.pending;
  }

  /** Loads pages until item `index` is there (or the frame has no more). */
  async ensure(index: number): Promise<void> {
    while (this.items.length <= index && (this.hasMore || this.items.length === 0) && !this.error) {
      const before = this.items.length;
      await this.loadMore();
      if (this.items.length === before) break;
    }
  }

  /** Starts again from the first page, loading as many items as were shown (at least one page). */
  async reload(): Promise<void> {
    await this.pending;
    const shown = Math.max(this.items.length, 1);
    runInAction(() => {
      this.items = [];
      this.total = 0;
    });
    await this.ensure(shown - 1);
  }

  private hashQuery() {
    return { content_hash: this.contentHash ?? '' };
  }

  private accept(reply: ItemReply): void {
    this.contentHash = reply.frame.content_hash;
    this.total = reply.frame.size;
    this.onDidWrite();
  }

  /**
   * Replaces item `index` with `fields` at once and sends it (PATCH {frame}content/{i}/); when the
   * server refuses, the item is put back (spec 001 §4) and the error is rethrown. A 409 (the data
   * changed meanwhile) reloads the items.
   */
  async editItem(index: number, fields: FrameItem): Promise<void> {
    const before = this.items[index];
    this.items[index] = fields;
    // The observable array keeps an observable copy of `fields`: that copy is what a later change would replace.
    const shown = this.items[index];
    try {
      const reply = await this.api.patch<ItemReply>(`${this.frameUri}content/${index}/`, fields, { query: this.hashQuery() });
      runInAction(() => this.accept(reply));
    } catch (e) {
      runInAction(() => {
        if (this.items[index] === shown) this.items[index] = before;
      });
      if ((e as { status?: number }).status === 409) void this.reload();
      throw e;
    }
  }

  /** Removes item `index` on the server, then reloads. */
  async deleteItem(index: number): Promise<void> {
    const reply = await this.api.delete<ItemReply>(`${this.frameUri}content/${index}/`, { query: this.hashQuery() });
    runInAction(() => this.accept(reply));
    await this.reload();
  }

  /** Inserts a copy of item `index` right after it on the server, then reloads. */
  async duplicateItem(index: number): Promise<void> {
    const reply = await this.api.post<ItemReply>(`${this.frameUri}content/${index}/duplicate/`, {}, { query: this.hashQuery() });
    runInAction(() => this.accept(reply));
    await this.reload();
  }
}
