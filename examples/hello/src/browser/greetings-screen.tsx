// #region screen-imports
import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, H2, InputGroup, TextArea } from '@werkbank/sdk/ui';
import {
  ApiClient,
  NavigationStore,
  NotificationService,
  ObjectList,
  useObjectActions,
  ObjectTags,
  RealmTagList,
  ResourceListStore,
  SearchBar,
  TagAssignMenuItems,
  TagChips,
  observer,
  useService,
  useT,
  type ListColumn,
  type Presentation,
  type TagRef,
} from '@werkbank/sdk/browser';
// #endregion screen-imports

interface Greeting {
  id: number;
  resource_uri: string;
  name: string;
  message: string;
  created: string;
  favored: boolean;
  tags?: TagRef[];
}

const PATH = '/api/v1/greeting/';

function NewGreetingDialog({ onClose }: { onClose(saved: boolean): void }) {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT('hello');
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string>();
  const save = async () => {
    try {
      await api.post(PATH, { name, message });
      notifications.success(String(t('core:common.saved')));
      onClose(true);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Dialog isOpen title={t('new')} icon="hand" onClose={() => onClose(false)}>
      <DialogBody>
        <FormGroup label={t('name')} labelFor="greeting-name">
          <InputGroup id="greeting-name" autoFocus value={name} onValueChange={setName} />
        </FormGroup>
        <FormGroup label={t('message')} labelFor="greeting-message">
          <TextArea id="greeting-message" fill value={message} onChange={(e) => setMessage(e.target.value)} />
        </FormGroup>
        {error && <Callout intent="danger">{error}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('core:common.cancel')} onClick={() => onClose(false)} />
            <Button intent="primary" text={t('save')} disabled={!name.trim()} onClick={save} data-testid="greeting-save" />
          </>
        }
      />
    </Dialog>
  );
}

/** The example screen at /hello/: greetings with search, favourites, tags and selection. */
const GreetingsScreen = observer(function GreetingsScreen() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const t = useT('hello');
  const store = useMemo(() => new ResourceListStore<Greeting>(api, PATH), [api]);
  const [text, setText] = useState('');
  const [creating, setCreating] = useState(false);
  const [version, setVersion] = useState(0);
  const presentation = nav.get<Presentation>('greeting_presentation', 'cards');
  const favorites = nav.get<boolean>('greeting_favorites', false);
  const reload = () => {
    setVersion((v) => v + 1);
    void store.reload().catch(() => undefined);
  };
  useEffect(() => {
    const active = nav.get<Record<string, number[]>>('active_tags', {}).greeting ?? [];
    store.setQuery({ filter: favorites ? 'favorites' : undefined, tag: active.length ? active.join(',') : undefined });
    reload();
  }, [store, favorites]);

  const actions = useObjectActions(store);
  const toggleFavor = (g: Greeting) => actions.toggleFavor(g);
  const remove = (g: Greeting) => actions.remove(g, String(t('delete_confirm', { name: g.name })));
  const columns: ListColumn<Greeting>[] = [
    { id: 'name', name: String(t('name')), width: 220, render: (g) => g.name },
    { id: 'message', name: String(t('message')), width: 320, render: (g) => g.message },
    { id: 'tags', name: String(t('tags')), width: 240, render: (g) => <TagChips tags={g.tags} /> },
    { id: 'created', name: String(t('created')), width: 180, render: (g) => new Date(g.created).toLocaleString() },
  ];
  return (
    <div className="wb-page">
      <div className="wb-toolbar">
        <H2>{t('title')}</H2>
        <Button intent="primary" icon="add" text={t('new')} onClick={() => setCreating(true)} data-testid="new-greeting" />
      </div>
      <p className="wb-muted">{t('intro')}</p>
      <div className="wb-list-layout">
        <div className="wb-list-main">
          <SearchBar
            value={text}
            onChange={setText}
            onSubmit={(q) => void store.search(q).catch(() => undefined)}
            presentation={presentation}
            onPresentationChange={(p) => nav.set('greeting_presentation', p)}
            favoritesOnly={favorites}
            onFavoritesChange={(on) => nav.set('greeting_favorites', on)}
            selectedCount={store.selected.size}
            onSelectAll={() => store.selectAll()}
            onClearSelection={() => store.clearSelection()}
            selectionMenu={<TagAssignMenuItems addresses={store.selectedItems.map((g) => g.resource_uri)} onDone={reload} />}
          />
          <ObjectList
            store={store}
            presentation={presentation}
            columns={columns}
            selectable
            emptyText={String(t('empty'))}
            renderCard={(g) => (
              <>
                <div className="wb-object-card-head">
                  <span className="wb-object-card-title">{g.name}</span>
                  <Button
                    size="small"
                    variant="minimal"
                    icon={g.favored ? 'star' : 'star-empty'}
                    aria-label={String(t(g.favored ? 'core:common.unfavor' : 'core:common.favor'))}
                    onClick={(e) => (e.stopPropagation(), void toggleFavor(g))}
                  />
                  <Button
                    size="small"
                    variant="minimal"
                    icon="trash"
                    aria-label={String(t('core:common.delete'))}
                    onClick={(e) => (e.stopPropagation(), void remove(g))}
                  />
                </div>
                <div>{g.message}</div>
                <ObjectTags address={g.resource_uri} tags={g.tags} onChange={reload} />
              </>
            )}
          />
        </div>
        <aside className="wb-list-side">
          <RealmTagList
            realm="greeting"
            reloadKey={version}
            onChange={(ids) => {
              store.setQuery({ tag: ids.length ? ids.join(',') : undefined });
              void store.reload().catch(() => undefined);
            }}
          />
        </aside>
      </div>
      {creating && (
        <NewGreetingDialog
          onClose={(saved) => {
            setCreating(false);
            if (saved) reload();
          }}
        />
      )}
    </div>
  );
});

export default GreetingsScreen;
