import { useEffect, useMemo, useState, useNavigate } from '@werkbank/sdk/react';
import { Button, H2, MenuDivider, MenuItem, Tag } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  ConfirmService,
  NavigationStore,
  NotificationService,
  ObjectList,
  ObjectTags,
  RealmTagList,
  RecentlyUsedBar,
  ResourceListStore,
  SearchBar,
  TagAssignMenuItems,
  TagChips,
  observer,
  useObjectActions,
  useService,
  useT,
  type ListColumn,
  type Presentation,
} from '@werkbank/sdk/browser';
import { VIEW_PATH } from '../common/view-rules';
import { viewLayers } from '../common/view-tree';
import type { View } from '../common/view-types';
import {
  VIEW_FAVORITES_KEY,
  VIEW_MRU_KEY,
  VIEW_MRU_LIMIT,
  VIEW_PRESENTATION_KEY,
  VIEW_REALM,
  viewEditRoute,
} from '../common/views-ids';

/**
 * The multi-select menu of the view list (spec 000 §8): tag, publish ("Published N items"; a
 * failure says "An error occurred while publishing one or more views."), delete. Publishing needs
 * publish_view.
 */
function ViewSelectionMenu({ views, onDone }: { views: View[]; onDone(): void }) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const confirm = useService(ConfirmService);
  const notifications = useService(NotificationService);
  const t = useT('views');
  const run = async (call: (v: View) => Promise<unknown>, done: string, failed?: string) => {
    let count = 0;
    let failure: string | undefined;
    for (const v of views)
      try {
        await call(v);
        count++;
      } catch (e) {
        failure ??= (e as Error).message;
      }
    if (count) notifications.success(String(t(done, { count })));
    if (failure) notifications.error(failed ? String(t(failed)) : failure);
    onDone();
  };
  const remove = async () => {
    const question = String(t('list.delete_selected_confirm', { count: views.length }));
    if (!(await confirm.confirm(question, { intent: 'danger', confirmLabel: String(t('core:common.delete')) }))) return;
    await run((v) => api.delete(v.resource_uri), 'list.deleted_items');
  };
  const none = !views.length;
  return (
    <>
      <TagAssignMenuItems addresses={views.map((v) => v.resource_uri)} onDone={onDone} />
      <MenuDivider />
      <MenuItem
        icon="globe"
        text={t('list.publish_selected')}
        disabled={none || !config.hasPermission('publish_view')}
        data-testid="views-publish"
        onClick={() =>
          void run((v) => api.patch(v.resource_uri, { public: true }), 'list.published_items', 'list.publish_failed')
        }
      />
      <MenuItem
        icon="trash"
        intent="danger"
        text={t('list.delete_selected')}
        disabled={none}
        data-testid="views-delete"
        onClick={() => void remove()}
      />
    </>
  );
}

/**
 * The view list at /views/ (spec 000 §2, §8): the 2 recently used views, search, favourites, cards
 * or table, the realm's tags, multi-select with tag, publish and delete; a new view is made at once
 * and opened in the editor.
 */
const ViewListScreen = observer(function ViewListScreen() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const t = useT('views');
  const store = useMemo(() => new ResourceListStore<View>(api, VIEW_PATH, 40), [api]);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [version, setVersion] = useState(0);
  const presentation = nav.get<Presentation>(VIEW_PRESENTATION_KEY, 'cards');
  const favorites = nav.get<boolean>(VIEW_FAVORITES_KEY, false);
  const actions = useObjectActions(store);
  const reload = () => {
    setVersion((v) => v + 1);
    void store.reload().catch(() => undefined);
  };
  useEffect(() => {
    const active = nav.get<Record<string, number[]>>('active_tags', {})[VIEW_REALM] ?? [];
    store.setQuery({
      order_by: 'name',
      q: query || undefined,
      filter: favorites ? 'favorites' : undefined,
      tag: active.length ? active.join(',') : undefined,
    });
    reload();
  }, [store, query, favorites]);

  const open = (v: View) => navigate(viewEditRoute(v.id));
  const create = async () => {
    try {
      const made = await api.post<View>(VIEW_PATH, { name: String(t('list.new_name')) });
      notifications.success(String(t('list.created')));
      open(made);
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  const status = (v: View) => t(v.public ? 'list.public_on' : 'list.public_off');
  const columns: ListColumn<View>[] = [
    { id: 'name', name: String(t('settings.name')), width: 240, render: (v) => v.name },
    { id: 'slug', name: String(t('list.slug')), width: 160, render: (v) => v.slug },
    { id: 'public', name: String(t('list.public')), width: 140, render: status },
    { id: 'layers', name: String(t('list.layers')), width: 80, render: (v) => String(viewLayers(v.layergroup).length) },
    { id: 'tags', name: String(t('list.tags')), width: 200, render: (v) => <TagChips tags={v.tags} /> },
    { id: 'modified', name: String(t('list.modified')), width: 180, render: (v) => new Date(v.modified).toLocaleString() },
  ];
  return (
    <div className="wb-page" data-testid="view-list">
      <div className="wb-toolbar">
        <H2>{t('list.title')}</H2>
        <Button intent="primary" icon="add" text={t('list.new')} data-testid="new-view" onClick={() => void create()} />
      </div>
      <RecentlyUsedBar
        storageKey={VIEW_MRU_KEY}
        limit={VIEW_MRU_LIMIT}
        label={t('list.recent')}
        icon="globe"
        testId="recent-views"
        itemTestId="recent-view"
        onOpen={(e) => navigate(viewEditRoute(e.id))}
      />
      <div className="wb-list-layout">
        <div className="wb-list-main">
          <SearchBar
            value={text}
            onChange={setText}
            onSubmit={setQuery}
            presentation={presentation}
            onPresentationChange={(p) => nav.set(VIEW_PRESENTATION_KEY, p)}
            favoritesOnly={favorites}
            onFavoritesChange={(on) => nav.set(VIEW_FAVORITES_KEY, on)}
            selectedCount={store.selected.size}
            onSelectAll={() => store.selectAll()}
            onClearSelection={() => store.clearSelection()}
            selectionMenu={<ViewSelectionMenu views={store.selectedItems} onDone={reload} />}
          />
          <ObjectList
            store={store}
            presentation={presentation}
            columns={columns}
            selectable
            emptyText={String(t(query || favorites ? 'list.no_results' : 'list.empty'))}
            onOpen={open}
            renderCard={(v) => (
              <>
                <div className="wb-object-card-head">
                  <span className="wb-object-card-title">{v.name}</span>
                  <Button
                    size="small"
                    variant="minimal"
                    icon={v.favored ? 'star' : 'star-empty'}
                    aria-label={String(t(v.favored ? 'core:common.unfavor' : 'core:common.favor'))}
                    onClick={(e) => (e.stopPropagation(), void actions.toggleFavor(v))}
                  />
                  {v.access?.includes('write') && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="trash"
                      aria-label={String(t('core:common.delete'))}
                      onClick={(e) => (
                        e.stopPropagation(),
                        void actions.remove(v, String(t('list.delete_confirm', { name: v.name })))
                      )}
                    />
                  )}
                </div>
                {v.subline && <div>{v.subline}</div>}
                <div>
                  <Tag minimal>{status(v)}</Tag>
                </div>
                <ObjectTags address={v.resource_uri} tags={v.tags} onChange={reload} />
              </>
            )}
          />
        </div>
        <aside className="wb-list-side">
          <RealmTagList
            realm={VIEW_REALM}
            reloadKey={version}
            onChange={(ids) => {
              store.setQuery({ tag: ids.length ? ids.join(',') : undefined });
              void store.reload().catch(() => undefined);
            }}
          />
        </aside>
      </div>
    </div>
  );
});

export default ViewListScreen;
