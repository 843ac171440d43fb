import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, Callout, H2, MenuItem } from '@werkbank/sdk/ui';
import {
  ActionMenu,
  ApiClient,
  ConfigStore,
  NavigationStore,
  ObjectEditorHost,
  ObjectList,
  ResourceListStore,
  SearchBar,
  observer,
  useObjectActions,
  useService,
  useT,
  type ListColumn,
  type Presentation,
} from '@werkbank/sdk/browser';
import { GROUP_PATH, GROUP_PRESENTATION_KEY } from '../../common/admin-paths';
import type { GroupRecord } from '../../common/group-rules';
import { PermissionLabel } from '../permission-label';
import { usePermissionLabels } from '../use-admin-data';

type ListedGroup = GroupRecord & { id: number };

/** The group list at /groups/ (spec 000 §2): search, cards or table, New group, Edit, Delete. */
const GroupList = observer(function GroupList() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const t = useT('admin');
  const store = useMemo(() => new ResourceListStore<ListedGroup>(api, GROUP_PATH, 40), [api]);
  const objectActions = useObjectActions(store);
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string>();
  const labels = usePermissionLabels();
  const presentation = nav.get<Presentation>(GROUP_PRESENTATION_KEY, 'table');
  const reload = () => void store.reload().catch(() => undefined);
  useEffect(() => {
    store.setQuery({ order_by: 'name' });
    reload();
  }, [store]);

  const menu = (g: ListedGroup) => (
    <ActionMenu label={String(t('groups.menu'))} testId={`group-menu-${g.id}`}>
      <MenuItem icon="edit" text={t('core:common.edit')} onClick={() => setEditing(g.resource_uri)} />
      <MenuItem
        icon="trash"
        intent="danger"
        text={t('core:common.delete')}
        data-testid="group-delete"
        onClick={() => void objectActions.remove(g, String(t('groups.delete_confirm', { name: g.name })))}
      />
    </ActionMenu>
  );
  const permissions = (g: ListedGroup) => (
    <span>
      {(g.group_permissions ?? []).map((p, i) => (
        <span key={p}>
          {i > 0 && ', '}
          <PermissionLabel name={p} label={labels?.[p]} />
        </span>
      ))}
    </span>
  );
  const columns: ListColumn<ListedGroup>[] = [
    { id: 'name', name: String(t('groups.name')), width: 220, render: (g) => g.name },
    { id: 'permissions', name: String(t('groups.permissions')), fill: true, width: 200, render: permissions },
    { id: 'menu', name: '', width: 50, render: menu },
  ];
  return (
    <div className="wb-page" data-testid="group-list">
      <div className="wb-toolbar">
        <H2>{t('groups.title')}</H2>
        <Button
          icon="add"
          intent="primary"
          text={t('groups.new')}
          data-testid="new-group"
          onClick={() => setEditing(GROUP_PATH)}
        />
      </div>
      <SearchBar
        value={text}
        onChange={setText}
        onSubmit={(q) => void store.search(q).catch(() => undefined)}
        presentation={presentation}
        onPresentationChange={(p) => nav.set(GROUP_PRESENTATION_KEY, p)}
      />
      <ObjectList
        store={store}
        presentation={presentation}
        columns={columns}
        emptyText={String(t(store.query.q ? 'groups.no_results' : 'groups.empty'))}
        onOpen={(g) => setEditing(g.resource_uri)}
        renderCard={(g) => (
          <>
            <div className="wb-object-card-head">
              <span className="wb-object-card-title">{g.name}</span>
              {menu(g)}
            </div>
            <div className="wb-muted wb-clamp">{permissions(g)}</div>
          </>
        )}
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

/** /groups/: superusers only (spec 002 §6). */
const GroupListScreen = observer(function GroupListScreen() {
  const config = useService(ConfigStore);
  const t = useT('admin');
  if (!config.isSuperuser) return <Callout intent="warning">{t('superusers_only')}</Callout>;
  return <GroupList />;
});

export default GroupListScreen;
