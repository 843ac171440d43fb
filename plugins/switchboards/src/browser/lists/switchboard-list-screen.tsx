import { useEffect, useMemo, useNavigate, useState } from '@werkbank/sdk/react';
import { Button, ButtonGroup, Callout, H2 } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  FolderEntries,
  I18nService,
  NavigationStore,
  ObjectEditorHost,
  ObjectList,
  RealmTagList,
  RecentlyUsedBar,
  ResourceListStore,
  SearchBar,
  observer,
  useObjectActions,
  useService,
  useT,
  type Presentation,
} from '@werkbank/sdk/browser';
import { SWITCHBOARD_FOLDER_PATH, SWITCHBOARD_PATH, switchboardRoute } from '../../common/switchboard-types';
import {
  mayWrite,
  SHOW_SYSTEM_TAGS_KEY,
  SWITCHBOARD_FAVORITES_KEY,
  SWITCHBOARD_FILTER_KEY,
  SWITCHBOARD_FOLDER_KEY,
  SWITCHBOARD_MRU_KEY,
  SWITCHBOARD_MRU_LIMIT,
  SWITCHBOARD_PRESENTATION_KEY,
  SWITCHBOARD_TAG_REALM,
} from './switchboard-list-ids';
import { SwitchboardFolderStore } from './switchboard-folder-store';
import { SwitchboardBreadcrumb } from './switchboard-breadcrumb';
import { SwitchboardCard, SwitchboardMenu, switchboardColumns, type ListedSwitchboard } from './switchboard-entries';
import { ImportSwitchboardButton } from './import-switchboard-button';
import { useSwitchboardActions } from './use-switchboard-actions';

/**
 * The switchboard list at /switchboards/ (spec 000 §2, §9): the folders and the switchboards outside
 * them at the root, one folder's switchboards inside it (the folder is remembered in
 * `switchboard_folder`), the two recently used, the search bar (text kept in `switchboard_filter`,
 * cards or table in `switchboard_presentation`, favourites, system tags), the realm's tag list,
 * and creating, importing, editing and deleting. A search text, the favourites toggle or an
 * active tag searches the switchboards of every folder.
 */
const SwitchboardListScreen = observer(function SwitchboardListScreen() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const config = useService(ConfigStore);
  const i18n = useService(I18nService);
  const t = useT('sb-lists');
  const navigate = useNavigate();
  const folders = useMemo(() => new SwitchboardFolderStore(api), [api]);
  const store = useMemo(() => new ResourceListStore<ListedSwitchboard>(api, SWITCHBOARD_PATH, 40), [api]);
  const actions = useSwitchboardActions();
  const objectActions = useObjectActions(store);
  const query = nav.get<string>(SWITCHBOARD_FILTER_KEY, '');
  const [text, setText] = useState(query);
  const [editing, setEditing] = useState<string>();
  const [tagsVersion, setTagsVersion] = useState(0);
  const presentation = nav.get<Presentation>(SWITCHBOARD_PRESENTATION_KEY, 'cards');
  const favorites = nav.get<boolean>(SWITCHBOARD_FAVORITES_KEY, false);
  const showSystemTags = nav.get<boolean>(SHOW_SYSTEM_TAGS_KEY, false);
  const tagsOn = config.isEnabled('tags');
  const activeTags = tagsOn ? (nav.get<Record<string, number[]>>('active_tags', {})[SWITCHBOARD_TAG_REALM] ?? []) : [];
  const remembered = nav.get<string | null>(SWITCHBOARD_FOLDER_KEY, null);
  // A remembered folder that is gone (deleted meanwhile) leaves the list at the root.
  const folder = folders.loaded && !folders.error ? folders.find(remembered) : undefined;
  const folderAddress = folder ? folder.resource_uri : null;
  const waiting = !!remembered && !folders.loaded;
  const searching = !!query || favorites || activeTags.length > 0;

  const openFolder = (address: string | null) => nav.set(SWITCHBOARD_FOLDER_KEY, address);
  const reloadList = () => void store.reload().catch(() => undefined);
  const reload = () => {
    void folders.load();
    reloadList();
    setTagsVersion((v) => v + 1);
  };
  useEffect(() => void folders.load(), [folders]);
  useEffect(() => {
    if (folders.loaded && remembered && !folder && !folders.error) openFolder(null);
  }, [folders.loaded, remembered, folder]);
  useEffect(() => {
    if (waiting) return;
    store.setQuery({
      order_by: 'name',
      in_folder: searching ? undefined : folder ? String(folder.id) : 'root',
      q: query || undefined,
      filter: favorites ? 'favorites' : undefined,
      tag: activeTags.length ? activeTags.join(',') : undefined,
    });
    reloadList();
  }, [store, waiting, folder?.id, searching, query, favorites, activeTags.join(',')]);

  const fmt = (iso?: string) => (iso ? new Date(iso).toLocaleString(i18n.language === 'de' ? 'de-DE' : 'en-GB') : '');
  const entryActions = {
    open: actions.open,
    settings: (sb: ListedSwitchboard) => setEditing(sb.resource_uri),
    duplicate: (sb: ListedSwitchboard) => void actions.duplicate(sb).then((copy) => copy && reloadList()),
    saveAsFile: (sb: ListedSwitchboard) => void actions.saveAsFile(sb),
    favor: (sb: ListedSwitchboard) => void objectActions.toggleFavor(sb),
    remove: (sb: ListedSwitchboard) =>
      void actions.remove(sb).then((gone) => gone && (store.removeLocal(sb.id), setTagsVersion((v) => v + 1))),
  };
  const menu = (sb: ListedSwitchboard) => <SwitchboardMenu sb={sb} actions={entryActions} />;
  return (
    <div className="wb-page" data-testid="switchboard-list">
      <div className="wb-toolbar">
        <H2>{folder?.name ?? t('list.title')}</H2>
        <ButtonGroup>
          <Button
            icon="add"
            intent="primary"
            text={t('switchboard.new')}
            data-testid="new-switchboard"
            onClick={() => setEditing(SWITCHBOARD_PATH)}
          />
          <Button
            icon="folder-new"
            text={t('folder.new')}
            data-testid="new-folder"
            onClick={() => setEditing(SWITCHBOARD_FOLDER_PATH)}
          />
          <ImportSwitchboardButton folder={folderAddress} actions={actions} onImported={reloadList} />
        </ButtonGroup>
        {folder && mayWrite(folder) && (
          <ButtonGroup>
            <Button
              icon="edit"
              text={t('folder.edit')}
              data-testid="edit-folder"
              onClick={() => setEditing(folder.resource_uri)}
            />
            <Button
              icon="trash"
              intent="danger"
              aria-label={String(t('folder.delete'))}
              data-testid="delete-folder"
              onClick={() => void actions.removeFolder(folder, () => (openFolder(null), reload()))}
            />
          </ButtonGroup>
        )}
      </div>
      <SwitchboardBreadcrumb folder={folder?.name} onRoot={() => openFolder(null)} />
      {folders.error && <Callout intent="danger">{folders.error}</Callout>}
      <RecentlyUsedBar
        storageKey={SWITCHBOARD_MRU_KEY}
        limit={SWITCHBOARD_MRU_LIMIT}
        label={t('list.recent')}
        icon="flow-branch"
        testId="recent-switchboards"
        itemTestId="recent-switchboard"
        onOpen={(e) => navigate(switchboardRoute(e.id))}
      />
      <div className="wb-list-layout">
        <div className="wb-list-main">
          <SearchBar
            value={text}
            onChange={setText}
            onSubmit={(q) => nav.set(SWITCHBOARD_FILTER_KEY, q.trim())}
            presentation={presentation}
            onPresentationChange={(p) => nav.set(SWITCHBOARD_PRESENTATION_KEY, p)}
            favoritesOnly={favorites}
            onFavoritesChange={(on) => nav.set(SWITCHBOARD_FAVORITES_KEY, on)}
            showSystemTags={showSystemTags}
            onShowSystemTagsChange={tagsOn ? (on) => nav.set(SHOW_SYSTEM_TAGS_KEY, on) : undefined}
          />
          {searching ? (
            <p className="wb-muted" data-testid="searching-all">
              {t('list.searching_all')}
            </p>
          ) : (
            !folder && (
              <FolderEntries
                folders={folders.folders}
                presentation={presentation}
                labels={{ menu: t('folder.menu'), open: t('folder.open') }}
                mayChange={mayWrite}
                testId="switchboard-folders"
                onOpen={(f) => openFolder(f.resource_uri)}
                onEdit={(f) => setEditing(f.resource_uri)}
                onDelete={(f) => void actions.removeFolder(f, reload)}
              />
            )
          )}
          <ObjectList
            store={store}
            presentation={presentation}
            columns={switchboardColumns(t, fmt, menu)}
            emptyText={String(t(searching ? 'list.no_results' : folder ? 'list.empty_folder' : 'list.empty'))}
            onOpen={(sb: ListedSwitchboard) => actions.open(sb)}
            renderCard={(sb) => <SwitchboardCard sb={sb} menu={menu(sb)} />}
          />
        </div>
        <aside className="wb-list-side">
          {/* Its onChange writes active_tags, which the effect above follows. */}
          <RealmTagList realm={SWITCHBOARD_TAG_REALM} reloadKey={tagsVersion} onChange={() => undefined} />
        </aside>
      </div>
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

export default SwitchboardListScreen;
