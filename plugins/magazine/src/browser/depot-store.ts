import { makeAutoObservable, ResourceListStore, runInAction, type ApiClient } from '@werkbank/sdk/browser';
import { DEPOT_PATH, mayWrite, MOMENT_PATH, type Depot, type DatumWriteReply, type Moment } from '../common/magazine-types';

/**
 * The state of one depot screen (spec 000 §2 /depot/{id}/, §4 "Moment"): the depot, its moments
 * (newest first, paged), the selected moment and the head the next write is based on.
 */
export class DepotStore {
  depot: Depot | undefined = undefined;
  error: string | undefined = undefined;
  selectedId: number | undefined = undefined;
  /** The selected moment when it is not among the loaded pages (a deep link). */
  fetched: Moment | undefined = undefined;
  /** True once the first page of moments arrived (before, a selection waits for it). */
  ready = false;
  /** The depot's head as the last reply said (a write may open a new one). */
  headId: number | undefined = undefined;
  readonly moments: ResourceListStore<Moment>;

  constructor(
    private readonly api: ApiClient,
    readonly depotId: number,
  ) {
    this.moments = new ResourceListStore<Moment>(api, MOMENT_PATH, 20);
    this.moments.setQuery({ depot_id: String(depotId) });
    makeAutoObservable<DepotStore, 'api'>(this, { api: false, moments: false });
  }

  get address(): string {
    return `${DEPOT_PATH}${this.depotId}/`;
  }

  /** Loads the depot and the first page of its moments; a failure is kept in `error`. */
  async load(): Promise<void> {
    try {
      const depot = await this.api.get<Depot>(this.address);
      runInAction(() => {
        this.depot = depot;
        this.headId = depot.current_moment?.id ?? undefined;
        this.error = undefined;
      });
    } catch (e) {
      runInAction(() => (this.error = (e as Error).message));
      return;
    }
    await this.moments.reload().catch(() => undefined);
    runInAction(() => (this.ready = true));
    await this.fetchSelected();
  }

  /** Selects a moment (from the route) or none; fetches it when it is not loaded. */
  async select(id: number | undefined): Promise<void> {
    if (id === this.selectedId) return;
    this.selectedId = id;
    if (this.ready) await this.fetchSelected();
  }

  /** Selects without fetching, before a load() that brings the moment along. */
  setSelected(id: number | undefined): void {
    this.selectedId = id;
  }

  private async fetchSelected(): Promise<void> {
    const id = this.selectedId;
    if (id === undefined || this.moments.items.some((m) => m.id === id) || this.fetched?.id === id) return;
    const moment = await this.api.get<Moment>(`${MOMENT_PATH}${id}/`).catch(() => undefined);
    runInAction(() => (this.fetched = moment));
  }

  get selected(): Moment | undefined {
    if (this.selectedId === undefined) return undefined;
    return (
      this.moments.items.find((m) => m.id === this.selectedId) ??
      (this.fetched?.id === this.selectedId ? this.fetched : undefined)
    );
  }

  /** True for the depot's open head (the only moment that takes edits). */
  isOpenHead(moment: Moment): boolean {
    return moment.id === this.headId && moment.status === 'open';
  }

  /** spec 000 §2: datums of a selected moment are read-only unless it is the open head. */
  get readOnly(): boolean {
    const m = this.selected;
    return this.selectedId !== undefined && (!m || !this.isOpenHead(m));
  }

  /**
   * True when the caller may change the depot (its reply's `access`): its datums, uploads and
   * moments. False until the depot is loaded.
   */
  get writable(): boolean {
    return mayWrite(this.depot);
  }

  /** True when the datums shown take no edits: an earlier moment, or a depot the caller may only read. */
  get datumsReadOnly(): boolean {
    return this.readOnly || !this.writable;
  }

  /** Where the datums come from: the selected older moment, else the head. */
  get datumListPath(): string {
    if (this.selectedId !== undefined && this.readOnly) return `/api/v1/datum/by-moment/${this.selectedId}/`;
    return `/api/v1/datum/by-depot/${this.depotId}/`;
  }

  /** Remembers the head a datum write replied with, so the next write is based on it. */
  noteWrite(reply: DatumWriteReply | undefined): void {
    if (reply?.moment_id) this.headId = reply.moment_id;
  }

  approve(moment: Moment, message?: string): Promise<Moment> {
    return this.api.post<Moment>(`${moment.resource_uri}approve/`, message ? { message } : {});
  }

  restore(moment: Moment, message?: string): Promise<Moment> {
    return this.api.post<Moment>(`${moment.resource_uri}restore/`, message ? { message } : {});
  }

  /** Closes the open head; the reply is the new open moment. */
  finalize(moment: Moment): Promise<Moment> {
    return this.api.post<Moment>(`${moment.resource_uri}finalize/`);
  }

  remove(moment: Moment): Promise<{ status: string; moment_id: number | null }> {
    return this.api.delete(moment.resource_uri);
  }
}
