import { useEffect, useMemo, useState, useNavigate } from '@werkbank/sdk/react';
import { Button, H2, Tag } from '@werkbank/sdk/ui';
import {
  ApiClient,
  NavigationStore,
  NotificationService,
  ObjectList,
  ObjectTags,
  RealmTagList,
  RecentlyUsedBar,
  ResourceListStore,
  SearchBar,
  TagChips,
  observer,
  useObjectActions,
  useService,
  useT,
  type ListColumn,
  type Presentation,
} from '@werkbank/sdk/browser';
import { LAYER_PATH, type Layer } from '../common/layers-api';
import {
  layerEditRoute,
  LAYER_FAVORITES_KEY,
  LAYER_MRU_KEY,
  LAYER_MRU_LIMIT,
  LAYER_PRESENTATION_KEY,
  LAYER_REALM,
} from '../common/layers-ids';
import { LayerSelectionMenu } from './layer-selection-menu';

/**
 * The layer list at /layers/ (spec 000 §2): recently used layers, the search bar (text,
 * favourites, cards or table, multi-select with tag, clone and delete), the realm's tag list, and
 * a new layer (made at once from the server's template, then opened in the editor).
 */
const LayerListScreen = observer(function LayerListScreen() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const t = useT('layers');
  const store = useMemo(() => new ResourceListStore<Layer>(api, LAYER_PATH, 40), [api]);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [version, setVersion] = useState(0);
  const presentation = nav.get<Presentation>(LAYER_PRESENTATION_KEY, 'cards');
  const favorites = nav.get<boolean>(LAYER_FAVORITES_KEY, false);
  const actions = useObjectActions(store);
  const reload = () => {
    setVersion((v) => v + 1);
    void store.reload().catch(() => undefined);
  };
  useEffect(() => {
    const active = nav.get<Record<string, number[]>>('active_tags', {})[LAYER_REALM] ?? [];
    store.setQuery({
      order_by: 'name',
      q: query || undefined,
      filter: favorites ? 'favorites' : undefined,
      tag: active.length ? active.join(',') : undefined,
    });
    reload();
  }, [store, query, favorites]);

  const open = (l: Layer) => navigate(layerEditRoute(l.id));
  const create = async () => {
    try {
      const template = await api.get<Record<string, unknown>>(`${LAYER_PATH}create_layer/`, { query: { layertype: 'feature' } });
      const made = await api.post<Layer>(LAYER_PATH, { ...template, name: String(t('list.new')) });
      notifications.success(String(t('list.created')));
      open(made);
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  const remove = (l: Layer) => actions.remove(l, String(t('list.delete_confirm', { name: l.name })));
  const columns: ListColumn<Layer>[] = [
    { id: 'name', name: String(t('settings.name')), width: 240, render: (l) => l.name },
    { id: 'type', name: String(t('list.type')), width: 140, render: (l) => l.type },
    { id: 'slug', name: String(t('list.slug')), width: 160, render: (l) => l.slug },
    { id: 'piles', name: String(t('list.piles')), width: 80, render: (l) => String(l.layerpiles.length) },
    {
      id: 'public',
      name: String(t('list.public')),
      width: 140,
      render: (l) => t(l.public ? 'settings.public_on' : 'settings.public_off'),
    },
    { id: 'tags', name: String(t('list.tags')), width: 200, render: (l) => <TagChips tags={l.tags} /> },
    { id: 'modified', name: String(t('list.modified')), width: 180, render: (l) => new Date(l.modified).toLocaleString() },
  ];
  return (
    <div className="wb-page" data-testid="layer-list">
      <div className="wb-toolbar">
        <H2>{t('list.title')}</H2>
        <Button intent="primary" icon="add" text={t('list.new')} data-testid="new-layer" onClick={() => void create()} />
      </div>
      <RecentlyUsedBar
        storageKey={LAYER_MRU_KEY}
        limit={LAYER_MRU_LIMIT}
        label={t('list.recent')}
        icon="layers"
        testId="recent-layers"
        itemTestId="recent-layer"
        onOpen={(e) => navigate(layerEditRoute(e.id))}
      />
      <div className="wb-list-layout">
        <div className="wb-list-main">
          <SearchBar
            value={text}
            onChange={setText}
            onSubmit={setQuery}
            presentation={presentation}
            onPresentationChange={(p) => nav.set(LAYER_PRESENTATION_KEY, p)}
            favoritesOnly={favorites}
            onFavoritesChange={(on) => nav.set(LAYER_FAVORITES_KEY, on)}
            selectedCount={store.selected.size}
            onSelectAll={() => store.selectAll()}
            onClearSelection={() => store.clearSelection()}
            selectionMenu={<LayerSelectionMenu layers={store.selectedItems} onDone={reload} />}
          />
          <ObjectList
            store={store}
            presentation={presentation}
            columns={columns}
            selectable
            emptyText={String(t(query || favorites ? 'list.no_results' : 'list.empty'))}
            onOpen={open}
            renderCard={(l) => (
              <>
                <div className="wb-object-card-head">
                  <span className="wb-object-card-title">{l.name}</span>
                  <Button
                    size="small"
                    variant="minimal"
                    icon={l.favored ? 'star' : 'star-empty'}
                    aria-label={String(t(l.favored ? 'core:common.unfavor' : 'core:common.favor'))}
                    onClick={(e) => (e.stopPropagation(), void actions.toggleFavor(l))}
                  />
                  {l.access?.includes('write') && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="trash"
                      aria-label={String(t('core:common.delete'))}
                      onClick={(e) => (e.stopPropagation(), void remove(l))}
                    />
                  )}
                </div>
                <div>
                  <Tag minimal>{l.type}</Tag> {l.public ? t('settings.public_on') : t('settings.public_off')}
                </div>
                <ObjectTags address={l.resource_uri} tags={l.tags} onChange={reload} />
              </>
            )}
          />
        </div>
        <aside className="wb-list-side">
          <RealmTagList
            realm={LAYER_REALM}
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

export default LayerListScreen;
