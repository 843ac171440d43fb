import { useEffect, useMemo, useState, useNavigate, useParams } from '@werkbank/sdk/react';
import { Button, ButtonGroup, Callout, H2 } from '@werkbank/sdk/ui';
import {
  ApiClient,
  FolderEntries,
  I18nService,
  NavigationStore,
  ObjectEditorHost,
  ObjectList,
  RecentlyUsedBar,
  ResourceListStore,
  SearchBar,
  observer,
  useObjectActions,
  useService,
  useT,
  type Presentation,
} from '@werkbank/sdk/browser';
import {
  byFolderPath,
  DEPOT_PATH,
  depotRoute,
  FOLDER_PATH,
  folderRoute,
  idOf,
  mayWrite,
  type Depot,
} from '../common/magazine-types';
import {
  DEPOT_FAVORITES_KEY,
  DEPOT_FOLDER_KEY,
  DEPOT_MRU_KEY,
  DEPOT_MRU_LIMIT,
  DEPOT_PRESENTATION_KEY,
} from '../common/magazine-ids';
import { FolderTreeStore } from './folder-tree-store';
import { DepotFolderStore } from './depot-folder-store';
import { FolderBreadcrumb } from './folder-breadcrumb';
import { DepotCard, DepotMenu, depotColumns, type DepotEntryActions } from './depot-entries';
import { useMagazineActions } from './use-magazine-actions';

/**
 * The depot list at /depots/ and one depot folder at /depotfolder/{folderId} (spec 000 §2): the
 * breadcrumb, the recently used depots, the search bar, the folder's sub-folders and depots as
 * cards or table with infinite scroll, creating, editing and deleting (editing and deleting only
 * what the caller may change). A search text or the favourites toggle searches the depots of every
 * folder.
 */
const DepotListScreen = observer(function DepotListScreen() {
  const params = useParams();
  const folderId = params.folderId ? Number(params.folderId) : undefined;
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const i18n = useService(I18nService);
  const navigate = useNavigate();
  const t = useT('magazine');
  const tree = useMemo(() => new FolderTreeStore(api), [api]);
  const current = useMemo(() => new DepotFolderStore(api, folderId), [api, folderId]);
  const inFolder = useMemo(() => new ResourceListStore<Depot>(api, byFolderPath(folderId), 40), [api, folderId]);
  const everywhere = useMemo(() => new ResourceListStore<Depot>(api, DEPOT_PATH, 40), [api]);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<string>();
  const presentation = nav.get<Presentation>(DEPOT_PRESENTATION_KEY, 'cards');
  const favorites = nav.get<boolean>(DEPOT_FAVORITES_KEY, false);
  const searching = !!query || favorites;
  const store = searching ? everywhere : inFolder;
  const folder = tree.find(folderId);
  const magazine = useMagazineActions();
  const objectActions = useObjectActions(store);

  const reload = () => {
    void tree.load();
    void current.load();
    void store.reload().catch(() => undefined);
  };
  useEffect(() => nav.set(DEPOT_FOLDER_KEY, folderId ? `${FOLDER_PATH}${folderId}/` : null), [nav, folderId]);
  useEffect(() => void tree.load(), [tree]);
  useEffect(() => void current.load(), [current]);
  useEffect(() => {
    store.setQuery({ order_by: 'name', ...(searching ? { q: query, filter: favorites ? 'favorites' : undefined } : {}) });
    void store.reload().catch(() => undefined);
  }, [store, query, favorites]);

  const fmt = (iso?: string) => (iso ? new Date(iso).toLocaleString(i18n.language === 'de' ? 'de-DE' : 'en-GB') : '');
  const actions: DepotEntryActions = {
    open: (d) => navigate(depotRoute(d.id)),
    edit: (d) => setEditing(d.resource_uri),
    favor: (d) => void objectActions.toggleFavor(d),
    remove: (d) => void magazine.removeDepot(d).then((gone) => gone && store.removeLocal(d.id)),
  };
  const menu = (d: Depot) => <DepotMenu depot={d} actions={actions} />;
  const parentRoute = folderRoute(idOf(folder?.parent));
  return (
    <div className="wb-page" data-testid="depot-list">
      <div className="wb-toolbar">
        <H2>{folder?.name ?? t('list.title')}</H2>
        <ButtonGroup>
          <Button icon="folder-new" text={t('folder.new')} data-testid="new-folder" onClick={() => setEditing(FOLDER_PATH)} />
          <Button
            icon="add"
            intent="primary"
            text={t('depot.new')}
            data-testid="new-depot"
            onClick={() => setEditing(DEPOT_PATH)}
          />
        </ButtonGroup>
        {folderId !== undefined && current.writable && (
          <ButtonGroup>
            <Button
              icon="edit"
              text={t('folder.edit')}
              data-testid="edit-folder"
              onClick={() => setEditing(`${FOLDER_PATH}${folderId}/`)}
            />
            <Button
              icon="trash"
              intent="danger"
              aria-label={String(t('folder.delete'))}
              data-testid="delete-folder"
              onClick={() => void magazine.removeFolder(folder ?? { id: folderId, name: '' }, () => navigate(parentRoute))}
            />
          </ButtonGroup>
        )}
      </div>
      <FolderBreadcrumb trail={tree.trail(folderId)} />
      {tree.error && <Callout intent="danger">{tree.error}</Callout>}
      <RecentlyUsedBar
        storageKey={DEPOT_MRU_KEY}
        limit={DEPOT_MRU_LIMIT}
        label={t('list.recent')}
        icon="database"
        testId="recent-depots"
        itemTestId="recent-depot"
        onOpen={(e) => navigate(depotRoute(e.id))}
      />
      <SearchBar
        value={text}
        onChange={setText}
        onSubmit={setQuery}
        presentation={presentation}
        onPresentationChange={(p) => nav.set(DEPOT_PRESENTATION_KEY, p)}
        favoritesOnly={favorites}
        onFavoritesChange={(on) => nav.set(DEPOT_FAVORITES_KEY, on)}
      />
      {searching ? (
        <p className="wb-muted">{t('list.searching_all')}</p>
      ) : (
        <FolderEntries
          folders={tree.children(folderId)}
          presentation={presentation}
          labels={{ menu: t('folder.menu'), open: t('list.open') }}
          mayChange={mayWrite}
          detail={(f) => t('folder.depot_count', { count: f.depot_count ?? 0 })}
          testId="folder-entries"
          onOpen={(f) => navigate(folderRoute(f.id))}
          onEdit={(f) => setEditing(f.resource_uri)}
          onDelete={(f) => void magazine.removeFolder(f, reload)}
        />
      )}
      <ObjectList
        store={store}
        presentation={presentation}
        columns={depotColumns(t, fmt, menu)}
        emptyText={String(t(searching ? 'list.no_results' : 'list.empty'))}
        onOpen={actions.open}
        renderCard={(d) => <DepotCard depot={d} menu={menu(d)} />}
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

export default DepotListScreen;
