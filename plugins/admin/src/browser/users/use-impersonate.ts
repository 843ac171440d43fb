import { ApiClient, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import { impersonatePath } from '../../common/admin-paths';

/**
 * Starts acting as a user (issue 19; superusers, never into another superuser — the server
 * decides). On success the whole workbench reloads as that user; on failure the spec's
 * 'Failed to impersonate user.' (spec 000 §8) with the server's reason.
 */
export function useImpersonate(): (user: { id: number }) => Promise<void> {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT('admin');
  return async (user) => {
    try {
      await api.post(impersonatePath(user.id), {});
      location.assign('/');
    } catch (e) {
      notifications.error(`${String(t('users.impersonate_failed'))} ${(e as Error).message}`);
    }
  };
}
