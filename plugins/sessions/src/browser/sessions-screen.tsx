import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, Callout, Checkbox, H2, Tag } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  ConfirmService,
  I18nService,
  Licensed,
  NotificationService,
  ObjectList,
  ResourceListStore,
  observer,
  useService,
  useT,
  UserSelect,
  useUsers,
  type ListColumn,
} from '@werkbank/sdk/browser';

interface Session {
  id: number;
  resource_uri: string;
  user: string;
  /** The user's display name (the server names people; never their address). */
  user_name: string | null;
  is_active: boolean;
  created_at: string;
  closed_at: string | null;
  ip_address: string;
  user_agent: string;
}

/** The session table of spec 000 §2: user, active flag, login, logout, IP address, user agent, close. */
const SessionList = observer(function SessionList() {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const t = useT('sessions');
  const store = useMemo(() => new ResourceListStore<Session>(api, '/api/v1/session/', 50), [api]);
  const users = useUsers();
  const [user, setUser] = useState('');
  const [activeOnly, setActiveOnly] = useState(true);

  useEffect(() => {
    store.setQuery({ user: user || undefined, is_active: activeOnly ? 'true' : undefined });
    void store.reload().catch(() => undefined);
  }, [store, user, activeOnly]);

  const name = (s: Session) => s.user_name ?? '';
  const fmt = new Intl.DateTimeFormat(i18n.language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  const close = async (s: Session) => {
    if (
      !(await confirm.confirm(String(t('close_confirm', { user: name(s) })), {
        intent: 'danger',
        confirmLabel: String(t('close')),
      }))
    )
      return;
    try {
      await api.post(`${s.resource_uri}close/`, {});
      notifications.success(String(t('closed')));
      void store.reload().catch(() => undefined);
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  const columns: ListColumn<Session>[] = [
    { id: 'user', name: String(t('user')), width: 180, render: (s) => name(s) },
    {
      id: 'active',
      name: String(t('active')),
      width: 90,
      render: (s) => (
        <Tag minimal intent={s.is_active ? 'success' : 'none'}>
          {t(s.is_active ? 'core:common.yes' : 'core:common.no')}
        </Tag>
      ),
    },
    { id: 'login', name: String(t('login')), width: 170, render: (s) => fmt.format(new Date(s.created_at)) },
    {
      id: 'logout',
      name: String(t('logout')),
      width: 170,
      render: (s) => (s.closed_at ? fmt.format(new Date(s.closed_at)) : ''),
    },
    { id: 'ip', name: String(t('ip')), width: 140, render: (s) => s.ip_address },
    { id: 'agent', name: String(t('agent')), width: 320, render: (s) => s.user_agent },
    {
      id: 'close',
      name: '',
      width: 60,
      render: (s) =>
        s.is_active ? (
          <Button size="small" variant="minimal" icon="log-out" aria-label={String(t('close'))} onClick={() => void close(s)} />
        ) : null,
    },
  ];
  return (
    <div className="wb-page">
      <div className="wb-toolbar">
        <H2>{t('title')}</H2>
      </div>
      <p className="wb-muted">{t('intro')}</p>
      <div className="wb-toolbar">
        <UserSelect users={users} value={user} onChange={setUser} allLabel={String(t('all_users'))} />
        <Checkbox
          label={String(t('active_only'))}
          checked={activeOnly}
          onChange={(e) => setActiveOnly(e.currentTarget.checked)}
          style={{ margin: 0 }}
        />
      </div>
      <ObjectList store={store} presentation="table" columns={columns} emptyText={String(t('empty'))} />
    </div>
  );
});

const SessionsScreen = observer(function SessionsScreen() {
  const config = useService(ConfigStore);
  const t = useT('sessions');
  if (!config.isSuperuser) return <Callout intent="warning">{t('superusers_only')}</Callout>;
  return (
    <Licensed component="sessions">
      <SessionList />
    </Licensed>
  );
});

export default SessionsScreen;
