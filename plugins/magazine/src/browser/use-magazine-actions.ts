import { ApiClient, ConfirmService, NotificationService, useRecentlyUsed, useService, useT } from '@werkbank/sdk/browser';
import { FOLDER_PATH, type Depot, type FolderNode } from '../common/magazine-types';
import { DEPOT_MRU_KEY, DEPOT_MRU_LIMIT, FOLDER_DELETE_RELOAD_MS } from '../common/magazine-ids';

export interface MagazineActions {
  /** Asks, deletes, says 'Depot was deleted' (spec 000 §8) and drops it from the recently used. */
  removeDepot(depot: Pick<Depot, 'id' | 'name' | 'resource_uri'>): Promise<boolean>;
  /** Asks, deletes, says 'Folder was deleted' and calls `reload` after 250 ms (spec 000 §4). */
  removeFolder(folder: Pick<FolderNode, 'id' | 'name'>, reload: () => void): Promise<boolean>;
}

/** Deleting depots and folders with the spec's confirmation and messages; errors as notifications. */
export function useMagazineActions(): MagazineActions {
  const api = useService(ApiClient);
  const confirm = useService(ConfirmService);
  const notifications = useService(NotificationService);
  const recent = useRecentlyUsed(DEPOT_MRU_KEY, DEPOT_MRU_LIMIT);
  const t = useT('magazine');
  const ask = (question: string) =>
    confirm.confirm(question, { intent: 'danger', confirmLabel: String(t('core:common.delete')) });
  return {
    async removeDepot(depot) {
      if (!(await ask(String(t('depot.delete_confirm', { name: depot.name }))))) return false;
      try {
        await api.delete(depot.resource_uri);
      } catch (e) {
        notifications.error((e as Error).message);
        return false;
      }
      recent.remove(depot.id);
      notifications.success(String(t('depot.deleted')));
      return true;
    },
    async removeFolder(folder, reload) {
      if (!(await ask(String(t('folder.delete_confirm', { name: folder.name }))))) return false;
      try {
        await api.delete(`${FOLDER_PATH}${folder.id}/`);
      } catch (e) {
        notifications.error((e as Error).message);
        return false;
      }
      notifications.success(String(t('folder.deleted')));
      setTimeout(reload, FOLDER_DELETE_RELOAD_MS);
      return true;
    },
  };
}
