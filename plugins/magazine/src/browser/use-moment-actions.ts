import { useNavigate } from '@werkbank/sdk/react';
import { ConfirmService, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { depotRoute, type Moment } from '../common/magazine-types';
import type { DepotStore } from './depot-store';

export interface MomentActions {
  approve(moment: Moment): Promise<void>;
  restore(moment: Moment, message: string): Promise<void>;
  finalize(moment: Moment): Promise<void>;
  remove(moment: Moment): Promise<void>;
}

/**
 * The moment actions of spec 000 §4 with the messages of §8: after approve or restore the depot
 * reloads and the selection clears; finalize selects the new moment it returns; delete asks first.
 * `reloadDatums` reloads the datum list when its source did not change.
 */
export function useMomentActions(store: DepotStore, reloadDatums: () => void): MomentActions {
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const navigate = useNavigate();
  const t = useT('magazine');
  const settle = async (selected?: number) => {
    store.setSelected(selected);
    navigate(depotRoute(store.depotId, selected));
    await store.load();
    reloadDatums();
  };
  return {
    async approve(moment) {
      try {
        await store.approve(moment);
      } catch {
        notifications.error(String(t('errors.approve')));
        return;
      }
      notifications.success(String(t('moment.approved')));
      await settle();
    },
    async restore(moment, message) {
      try {
        await store.restore(moment, message || undefined);
      } catch {
        notifications.error(String(t('errors.restore')));
        return;
      }
      notifications.success(String(t('moment.restored')));
      await settle();
    },
    async finalize(moment) {
      try {
        const next = await store.finalize(moment);
        notifications.success(String(t('moment.finalized')));
        await settle(next.id);
      } catch (e) {
        notifications.error((e as Error).message);
      }
    },
    async remove(moment) {
      const ok = await confirm.confirm(String(t('moment.delete_confirm')), {
        intent: 'danger',
        confirmLabel: String(t('core:common.delete')),
      });
      if (!ok) return;
      try {
        await store.remove(moment);
      } catch (e) {
        notifications.error((e as Error).message);
        return;
      }
      notifications.success(String(t('moment.deleted')));
      await settle(store.selectedId === moment.id ? undefined : store.selectedId);
    },
  };
}
