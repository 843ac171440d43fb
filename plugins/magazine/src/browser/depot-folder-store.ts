import { makeAutoObservable, runInAction, type ApiClient } from '@werkbank/sdk/browser';
import { FOLDER_PATH, mayWrite, type DepotFolder } from '../common/magazine-types';

/**
 * One depot folder as GET /api/v1/depotfolder/{id}/ replies, for what the folder page offers: the
 * folder tree carries no `access`, the detail does. No folder id (the root) loads nothing.
 */
export class DepotFolderStore {
  folder: DepotFolder | undefined = undefined;

  constructor(
    private readonly api: ApiClient,
    readonly folderId: number | undefined,
  ) {
    makeAutoObservable<DepotFolderStore, 'api'>(this, { api: false });
  }

  /** Loads the folder anew; a failure leaves none (never thrown), so nothing is offered. */
  async load(): Promise<void> {
    if (this.folderId === undefined) return;
    const folder = await this.api.get<DepotFolder>(`${FOLDER_PATH}${this.folderId}/`).catch(() => undefined);
    runInAction(() => (this.folder = folder));
  }

  /** True when the caller may change the folder (rename, move, grant, delete). */
  get writable(): boolean {
    return mayWrite(this.folder);
  }
}
