import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, Callout, H2 } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  I18nService,
  NavigationStore,
  ObjectEditorHost,
  ObjectList,
  ResourceListStore,
  SearchBar,
  observer,
  useObjectActions,
  useService,
  useT,
  type Presentation,
} from '@werkbank/sdk/browser';
import { USER_FILTERS_KEY, USER_PATH, USER_PRESENTATION_KEY } from '../../common/admin-paths';
import { UserCard, UserMenu, userColumns, type ListedUser, type UserEntryActions } from './user-entries';
import { NO_USER_FILTERS, UserFilterBar, type UserFilters } from './user-filters';
import { UserSelectionMenu } from './user-selection-menu';
import { useImpersonate } from './use-impersonate';

/**
 * The user list at /users/ (spec 000 §2, spec 002 §2): search, cards or table with infinite
 * scroll, filters active, staff and superuser, multi-select (allow or deny login, delete), New
 * user; a user opens in the user editor.
 */
const UserList = observer(function UserList() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const i18n = useService(I18nService);
  const t = useT('admin');
  const store = useMemo(() => new ResourceListStore<ListedUser>(api, USER_PATH, 40), [api]);
  const objectActions = useObjectActions(store);
  const impersonate = useImpersonate();
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();
  const presentation = nav.get<Presentation>(USER_PRESENTATION_KEY, 'table');
  const filters = nav.get<UserFilters>(USER_FILTERS_KEY, NO_USER_FILTERS);

  const reload = () => void store.reload().catch(() => undefined);
  useEffect(() => {
    store.setQuery({
      order_by: 'username',
      is_active: filters.is_active || undefined,
      is_staff: filters.is_staff || undefined,
      is_superuser: filters.is_superuser || undefined,
    });
    reload();
  }, [store, filters.is_active, filters.is_staff, filters.is_superuser]);

  const fmt = new Intl.DateTimeFormat(i18n.language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  const actions: UserEntryActions = {
    edit: (u) => setEditing(u.resource_uri),
    remove: (u) => void objectActions.remove(u, String(t('users.delete_confirm', { name: u.display_name }))),
    impersonate: (u) => void impersonate(u),
  };
  const menu = (u: ListedUser) => <UserMenu user={u} actions={actions} />;
  const searching = !!store.query.q || Object.values(filters).some(Boolean);
  return (
    <div className="wb-page" data-testid="user-list">
      <div className="wb-toolbar">
        <H2>{t('users.title')}</H2>
        <Button
          icon="new-person"
          intent="primary"
          text={t('users.new')}
          data-testid="new-user"
          onClick={() => setEditing(USER_PATH)}
        />
      </div>
      <SearchBar
        value={text}
        onChange={setText}
        onSubmit={(q) => void store.search(q).catch(() => undefined)}
        presentation={presentation}
        onPresentationChange={(p) => nav.set(USER_PRESENTATION_KEY, p)}
        selectedCount={store.selected.size}
        onSelectAll={() => store.selectAll()}
        onClearSelection={() => store.clearSelection()}
        selectionMenu={<UserSelectionMenu users={store.selectedItems} onDone={reload} />}
      />
      <UserFilterBar value={filters} onChange={(next) => nav.set(USER_FILTERS_KEY, next)} />
      <ObjectList
        store={store}
        presentation={presentation}
        columns={userColumns(t, (iso) => fmt.format(new Date(iso)), menu)}
        selectable
        emptyText={String(t(searching ? 'users.no_results' : 'users.empty'))}
        onOpen={actions.edit}
        renderCard={(u) => <UserCard user={u} menu={menu(u)} />}
      />
      {editing && (
        <ObjectEditorHost
          address={editing}
          onClose={(saved) => {
            setEditing(undefined);
            if (saved) reload();
          }}
        />
      )}
    </div>
  );
});

/** /users/: superusers only (spec 002 §6). */
const UserListScreen = observer(function UserListScreen() {
  const config = useService(ConfigStore);
  const t = useT('admin');
  if (!config.isSuperuser) return <Callout intent="warning">{t('superusers_only')}</Callout>;
  return <UserList />;
});

export default UserListScreen;
