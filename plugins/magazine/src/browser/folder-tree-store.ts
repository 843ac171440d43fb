import { makeAutoObservable, runInAction, type ApiClient } from '@werkbank/sdk/browser';
import { FOLDER_TREE_PATH, type FolderNode } from '../common/magazine-types';
import { findFolder, flattenTree, folderTrail } from '../common/folder-tree';

/** The depot folder tree (GET /api/v1/depotfoldertree/) for breadcrumbs, sub-folders and pickers. */
export class FolderTreeStore {
  nodes: FolderNode[] = [];
  loaded = false;
  error: string | undefined = undefined;

  constructor(private readonly api: ApiClient) {
    makeAutoObservable<FolderTreeStore, 'api'>(this, { api: false });
  }

  /** Loads the tree anew; a failure is kept in `error` (never thrown). */
  async load(): Promise<void> {
    try {
      const reply = await this.api.get<{ objects: FolderNode[] }>(FOLDER_TREE_PATH);
      runInAction(() => {
        this.nodes = reply.objects ?? [];
        this.loaded = true;
        this.error = undefined;
      });
    } catch (e) {
      runInAction(() => {
        this.error = (e as Error).message;
        this.loaded = true;
      });
    }
  }

  find(id: number | undefined): FolderNode | undefined {
    return id === undefined ? undefined : findFolder(this.nodes, id);
  }

  /** The folders from the top down to `id`. */
  trail(id: number | undefined): FolderNode[] {
    return folderTrail(this.nodes, id);
  }

  /** The folders directly in `id` (the top-level folders for the root). */
  children(id: number | undefined): FolderNode[] {
    return id === undefined ? this.nodes : (this.find(id)?.children ?? []);
  }

  get all(): Array<FolderNode & { depth: number }> {
    return flattenTree(this.nodes);
  }
}
