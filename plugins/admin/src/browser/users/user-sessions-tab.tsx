import { useEffect, useMemo } from '@werkbank/sdk/react';
import { Button, Tag } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfirmService,
  I18nService,
  Licensed,
  NotificationService,
  ObjectList,
  ResourceListStore,
  observer,
  useService,
  useT,
  type ListColumn,
} from '@werkbank/sdk/browser';
import { SESSION_PATH } from '../../common/admin-paths';

interface Session {
  id: number;
  resource_uri: string;
  is_active: boolean;
  created_at: string;
  closed_at: string | null;
  ip_address: string;
  user_agent: string;
}

/**
 * The Sessions tab (spec 002 §2; superusers, existing user, sessions component): the user's
 * sessions (sessionsByUser, newest first) with login, logout, IP address and user agent; an active
 * one can be closed.
 */
const SessionTable = observer(function SessionTable({ user }: { user: string }) {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const t = useT('admin');
  const store = useMemo(() => new ResourceListStore<Session>(api, SESSION_PATH, 50), [api]);
  useEffect(() => {
    store.setQuery({ user });
    void store.reload().catch(() => undefined);
  }, [store, user]);

  const fmt = new Intl.DateTimeFormat(i18n.language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  const close = async (s: Session) => {
    if (
      !(await confirm.confirm(String(t('sessions.close_confirm')), {
        intent: 'danger',
        confirmLabel: String(t('sessions.close')),
      }))
    )
      return;
    try {
      await api.post(`${s.resource_uri}close/`, {});
      notifications.success(String(t('sessions.closed')));
      void store.reload().catch(() => undefined);
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  const columns: ListColumn<Session>[] = [
    {
      id: 'active',
      name: String(t('sessions.active')),
      width: 80,
      render: (s) => (
        <Tag minimal intent={s.is_active ? 'success' : 'none'}>
          {t(s.is_active ? 'core:common.yes' : 'core:common.no')}
        </Tag>
      ),
    },
    { id: 'login', name: String(t('sessions.login')), width: 150, render: (s) => fmt.format(new Date(s.created_at)) },
    {
      id: 'logout',
      name: String(t('sessions.logout')),
      width: 150,
      render: (s) => (s.closed_at ? fmt.format(new Date(s.closed_at)) : ''),
    },
    { id: 'ip', name: String(t('sessions.ip')), width: 120, render: (s) => s.ip_address },
    { id: 'agent', name: String(t('sessions.agent')), fill: true, width: 120, render: (s) => s.user_agent },
    {
      id: 'close',
      name: '',
      width: 50,
      render: (s) =>
        s.is_active ? (
          <Button
            size="small"
            variant="minimal"
            icon="log-out"
            aria-label={String(t('sessions.close'))}
            onClick={() => void close(s)}
          />
        ) : null,
    },
  ];
  return (
    <div data-testid="user-sessions" style={{ height: 320, overflow: 'auto' }}>
      <ObjectList store={store} presentation="table" columns={columns} emptyText={String(t('sessions.empty'))} />
    </div>
  );
});

export function UserSessionsTab({ user }: { user: string }) {
  return (
    <Licensed component="sessions">
      <SessionTable user={user} />
    </Licensed>
  );
}
