import { makeAutoObservable, runInAction, type ApiClient, type ListResponse } from '@werkbank/sdk/browser';
import { idOf, SWITCHBOARD_FOLDER_PATH, type SwitchboardFolder } from '../../common/switchboard-types';

/** The folders' list is flat (docs/api.md "switchboardfolder"); one page holds them all. */
const FOLDER_LIMIT = 1000;

/**
 * Every switchboard folder the caller sees (all of them: folders are visible to every signed-in
 * user), sorted by name. `load()` never rejects; a failure is kept in `error`.
 */
export class SwitchboardFolderStore {
  folders: SwitchboardFolder[] = [];
  loaded = false;
  error: string | undefined = undefined;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<SwitchboardFolderStore, 'api'>(this, { api: false });
  }

  async load(): Promise<void> {
    try {
      const page = await this.api.get<ListResponse<SwitchboardFolder>>(SWITCHBOARD_FOLDER_PATH, {
        query: { order_by: 'name', limit: FOLDER_LIMIT },
      });
      runInAction(() => {
        this.folders = page.objects;
        this.error = undefined;
        this.loaded = true;
      });
    } catch (e) {
      runInAction(() => {
        this.error = (e as Error).message;
        this.loaded = true;
      });
    }
  }

  /** The folder with this address or id, if the list holds it. */
  find(ref: string | number | null | undefined): SwitchboardFolder | undefined {
    const id = typeof ref === 'number' ? ref : idOf(ref);
    return id === undefined ? undefined : this.folders.find((f) => f.id === id);
  }
}
