import { makeAutoObservable, runInAction, type ApiClient } from '@werkbank/sdk/browser';
import { createInFramePath, typeName, type Frame } from '../../common/switchboard-types';
import { frameKind, isCreatable, templateFields, type FrameItem, type FrameKind, type FrameTab } from './frame-kind';
import { availableTabs, initialTab, type TabFacts } from './initial-tab';
import { FrameContentStore } from './frame-content-store';
import { FrameSettingsDraft } from './settings/frame-settings-draft';

/** GET /api/v1/type/ (docs/api.md "type"). */
export const TYPE_LIST_PATH = '/api/v1/type/';

export interface TypeEntry {
  name: string;
  base_chain: string[];
}

export interface FrameDialogOptions {
  frameUri: string;
  initialTab?: FrameTab;
  hideFrameSettings?: boolean;
  readOnly?: boolean;
}

type FrameWithAccess = Frame & { access?: string[] };

/** The browser's type registry (TypeHierarchy), for types the server's list does not name. */
interface BaseChains {
  baseChain(name: string): string[];
}

/**
 * The frame dialog's state (spec 001 §2.6): the frame, its type, its items, the tab and the datum
 * the Single view shows, and what is not saved yet — datums changed or added in the Single view and
 * the Settings. Table edits and uploads are sent at once; `changed` tells whether anything reached
 * the server while the dialog was open.
 */
export class FrameDialogStore {
  frame: FrameWithAccess | undefined = undefined;
  /** The frame, its first items and its type are known and the tab is chosen. */
  ready = false;
  loadError: string | undefined = undefined;
  types: TypeEntry[] = [];
  template: FrameItem | undefined = undefined;
  tab: FrameTab = 'single';
  private history: FrameTab[] = [];
  index = 0;
  edits = new Map<number, FrameItem>();
  added: FrameItem[] = [];
  settings: FrameSettingsDraft | undefined = undefined;
  busy = false;
  error: string | undefined = undefined;
  changed = false;
  readonly content: FrameContentStore;

  constructor(
    private readonly api: ApiClient,
    private readonly hierarchy: BaseChains,
    readonly options: FrameDialogOptions,
  ) {
    this.content = new FrameContentStore(api, options.frameUri, () => runInAction(() => (this.changed = true)));
    makeAutoObservable<FrameDialogStore, 'api' | 'hierarchy'>(this, {
      api: false,
      hierarchy: false,
      options: false,
      content: false,
    });
  }

  /** Loads the frame, the types, the first items and (for an empty frame) the type's template; then picks the tab. */
  async load(): Promise<void> {
    try {
      const [frame, types] = await Promise.all([
        this.api.get<FrameWithAccess>(this.options.frameUri),
        this.api.get<{ objects: TypeEntry[] }>(TYPE_LIST_PATH, { query: { limit: 1000 } }).then(
          (r) => r.objects,
          () => [] as TypeEntry[],
        ),
        this.content.loadMore(),
      ]);
      runInAction(() => {
        this.frame = frame;
        this.types = types;
        this.settings = new FrameSettingsDraft(frame);
      });
      await this.loadTemplate();
      runInAction(() => {
        this.tab = initialTab(this.facts, this.options.initialTab);
        this.ready = true;
        if (this.tab === 'single' && this.content.total === 0 && this.creatable && !this.readOnly) this.addNew();
      });
    } catch (e) {
      runInAction(() => (this.loadError = (e as Error).message));
    }
  }

  /** The template decides whether the type can be created by hand; asked for only when it matters. */
  private async loadTemplate(): Promise<void> {
    if (!this.frame || this.kind === 'file') return void (this.template = undefined);
    const template = await this.api
      .get<Record<string, unknown>>(createInFramePath(this.frame.id))
      .then(templateFields, () => undefined);
    runInAction(() => (this.template = template));
  }

  get typeName(): string {
    return this.frame ? (this.frame.type_name ?? typeName(this.frame.content_type)) : '';
  }

  /** The type's base chain, most specific first: the server's, else the browser's type registry. */
  get chain(): string[] {
    return this.types.find((t) => t.name === this.typeName)?.base_chain ?? this.hierarchy.baseChain(this.typeName);
  }

  get kind(): FrameKind {
    return frameKind(this.chain);
  }

  /** The template that decides what the datum editor edits (datumEditorValue); `{}` when there is none. */
  get editorTemplate(): FrameItem {
    return this.template ?? {};
  }

  get creatable(): boolean {
    return isCreatable(this.kind, this.template);
  }

  /** Read-only when asked to, or when the caller may not change the switchboard. */
  get readOnly(): boolean {
    return !!this.options.readOnly || (!!this.frame?.access && !this.frame.access.includes('write'));
  }

  get facts(): TabFacts {
    return {
      kind: this.kind,
      count: this.content.total,
      readOnly: this.readOnly,
      hideFrameSettings: !!this.options.hideFrameSettings,
      creatable: this.creatable,
    };
  }

  get tabs(): FrameTab[] {
    return availableTabs(this.facts);
  }

  /** Datums the Single view steps through: the frame's and those added here. */
  get count(): number {
    return this.content.total + this.added.length;
  }

  /**
   * Whether something the user changed is not saved yet (Close asks first). A datum prepared from the
   * template and not touched does not count, so closing a freshly opened empty frame asks nothing.
   */
  get dirty(): boolean {
    const blank = JSON.stringify(this.template ?? {});
    return this.edits.size > 0 || this.added.some((a) => JSON.stringify(a) !== blank) || !!this.settings?.changes;
  }

  /**
   * Whether Save has something to write: what is dirty, and every datum added here, also one
   * still as the template made it — a new bool shows "Off", and "Off" is what Save then writes.
   */
  get savable(): boolean {
    return this.dirty || this.added.length > 0;
  }

  select(tab: FrameTab): void {
    if (tab === this.tab) return;
    this.history.push(this.tab);
    this.tab = tab;
  }

  /** Back to the tab shown before the current one (Save & Back); stays when there is none. */
  back(): void {
    const previous = this.history.pop();
    if (previous && this.tabs.includes(previous)) this.tab = previous;
  }

  /** Shows datum `index` in the Single view, loading the items up to it. */
  openSingle(index: number): void {
    this.index = Math.max(0, Math.min(index, this.count - 1));
    this.select('single');
    void this.content.ensure(this.index);
  }

  /** Previous (-1) or next (+1) datum. */
  step(delta: number): void {
    this.openSingle(this.index + delta);
  }

  /** Datum `index` as the Single view shows it: changed here, added here, or as loaded. */
  itemAt(index: number): FrameItem | undefined {
    if (index >= this.content.total) return this.added[index - this.content.total];
    return this.edits.get(index) ?? this.content.items[index];
  }

  isAdded(index: number): boolean {
    return index >= this.content.total;
  }

  setItem(index: number, fields: FrameItem): void {
    if (this.isAdded(index)) this.added[index - this.content.total] = fields;
    else this.edits.set(index, fields);
  }

  /** Something reached the server outside save() (an upload). */
  markChanged(): void {
    this.changed = true;
  }

  /** Forgets a Single-view change (it was sent with a table edit of the same row). */
  dropEdit(index: number): void {
    this.edits.delete(index);
  }

  /** A new datum from the type's template, shown in the Single view (appended on save). */
  addNew(): void {
    this.added.push(JSON.parse(JSON.stringify(this.template ?? {})) as FrameItem);
    this.index = this.count - 1;
    this.select('single');
  }

  /** Drops a datum added here before it was saved. */
  discardNew(index: number): void {
    if (!this.isAdded(index)) return;
    this.added.splice(index - this.content.total, 1);
    this.index = Math.max(0, Math.min(this.index, this.count - 1));
  }

  /**
   * Saves what is pending (spec 001 §2.6): the settings (PATCH frame; a new data type empties the
   * frame and drops the datums changed here), changed datums one by one (PATCH {frame}content/{i}/),
   * added datums in one call (POST create-in-frame). Resolves true when all was saved; otherwise
   * clears `busy`, keeps what is left and shows the server's reason (spec 001 §4).
   */
  async save(): Promise<boolean> {
    if (!this.frame || this.readOnly) return false;
    this.busy = true;
    this.error = undefined;
    try {
      await this.saveSettings();
      for (const [index, fields] of [...this.edits]) {
        await this.content.editItem(index, fields);
        runInAction(() => this.edits.delete(index));
      }
      if (this.added.length) {
        await this.api.post(createInFramePath(this.frame.id), { objects: this.added });
        runInAction(() => {
          this.added = [];
          this.changed = true;
        });
        await this.content.reload();
      }
      return true;
    } catch (e) {
      runInAction(() => (this.error = (e as Error).message));
      return false;
    } finally {
      runInAction(() => (this.busy = false));
    }
  }

  private async saveSettings(): Promise<void> {
    const changes = this.settings?.changes;
    if (!changes || !this.frame) return;
    const frame = await this.api.patch<FrameWithAccess>(this.frame.resource_uri, changes);
    runInAction(() => {
      this.frame = { ...this.frame, ...frame };
      this.settings = new FrameSettingsDraft(this.frame);
      this.changed = true;
      if (changes.content_type) {
        this.edits.clear();
        this.added = [];
        this.index = 0;
      }
    });
    if (changes.content_type) {
      await this.loadTemplate();
      await this.content.reload();
    }
  }
}
