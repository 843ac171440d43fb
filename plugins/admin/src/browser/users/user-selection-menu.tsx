import { MenuItem } from '@werkbank/sdk/ui';
import { ApiClient, ConfirmService, useBulkAction, useService, useT } from '@werkbank/sdk/browser';
import type { ListedUser } from './user-entries';

/**
 * The multi-select menu of the user list: allow or deny login, delete. Each user is changed by
 * its own call; the first refusal (e.g. deleting oneself) is shown and the rest still run.
 */
export function UserSelectionMenu({ users, onDone }: { users: ListedUser[]; onDone(): void }) {
  const api = useService(ApiClient);
  const confirm = useService(ConfirmService);
  const t = useT('admin');
  const each = useBulkAction(users, onDone, (key, count) => String(t(key, { count })));
  const setActive = (on: boolean) => void each((u) => api.patch(u.resource_uri, { is_active: on }), 'users.bulk_done');
  const remove = async () => {
    const question = String(t('users.delete_selected_confirm', { count: users.length }));
    if (!(await confirm.confirm(question, { intent: 'danger', confirmLabel: String(t('core:common.delete')) }))) return;
    await each((u) => api.delete(u.resource_uri), 'users.bulk_deleted');
  };
  const none = !users.length;
  return (
    <>
      <MenuItem
        icon="unlock"
        text={t('users.activate')}
        disabled={none}
        data-testid="users-activate"
        onClick={() => setActive(true)}
      />
      <MenuItem
        icon="lock"
        text={t('users.deactivate')}
        disabled={none}
        data-testid="users-deactivate"
        onClick={() => setActive(false)}
      />
      <MenuItem
        icon="trash"
        intent="danger"
        text={t('users.delete_selected')}
        disabled={none}
        data-testid="users-delete"
        onClick={() => void remove()}
      />
    </>
  );
}
