import { ApiClient, ConfirmService, NotificationService, useService, useT } from '@werkbank/kernel/browser';
import type { ListObject, ResourceListStore } from './resource-list-store';

export interface ObjectActions<T extends ListObject & { favored?: boolean }> {
  /** Asks with `question`, deletes, says 'Object was deleted' (spec 000 §8) and drops it from the list. */
  remove(item: T, question: string): Promise<boolean>;
  /** Favours or unfavours (spec 000 §7 favor/, unfavor/) and says so. */
  toggleFavor(item: T): Promise<void>;
}

/** The delete and favourite actions every object list offers, with the spec's messages. */
export function useObjectActions<T extends ListObject & { favored?: boolean }>(store: ResourceListStore<T>): ObjectActions<T> {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const t = useT();
  return {
    async remove(item, question) {
      if (!(await confirm.confirm(question, { intent: 'danger', confirmLabel: String(t('common.delete')) }))) return false;
      try {
        await api.delete(item.resource_uri);
        notifications.success(String(t('common.deleted')));
        store.removeLocal(item.id);
        return true;
      } catch (e) {
        notifications.error((e as Error).message);
        return false;
      }
    },
    async toggleFavor(item) {
      try {
        await api.post(`${item.resource_uri}${item.favored ? 'unfavor' : 'favor'}/`);
        notifications.success(String(t(item.favored ? 'common.unfavored' : 'common.favored')));
        store.replace({ ...item, favored: !item.favored });
      } catch (e) {
        notifications.error((e as Error).message);
      }
    },
  };
}
