import { useEffect, useMemo, useState, useNavigate, useParams } from '@werkbank/sdk/react';
import {
  AnchorButton,
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  H2,
  InputGroup,
  Spinner,
} from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  NotificationService,
  ObjectList,
  ResourceListStore,
  SearchBar,
  observer,
  useObjectActions,
  useService,
  useT,
  type ListColumn,
} from '@werkbank/sdk/browser';
import { isValidSlug } from '@werkbank/plugin-layers/api';
import { CREATE_FINALVIEW_PATH } from '../common/finalview-fields';
import { FINALVIEW_PATH, FINALVIEWS_ROUTE, finalviewEditRoute, type Finalview } from '../common/finalview-types';
import { viewerAddress } from '../common/view-scene';
import { viewEditRoute } from '../common/views-ids';

/** The viewer address of a frozen view (VIEWER_URL_FINALVIEW). */
function useFinalviewUrl(): (f: Pick<Finalview, 'id' | 'slug'>) => string | undefined {
  const config = useService(ConfigStore);
  const template = config.config.viewer_urls?.finalview;
  return (f) => (template ? viewerAddress(template, f) : undefined);
}

const idOf = (address: string | null) => Number(/(\d+)\/$/.exec(address ?? '')?.[1]);

/** /finalviews/ (spec 000 §2): the frozen views, searchable, each opened in its editor or the viewer. */
export const FinalviewListScreen = observer(function FinalviewListScreen() {
  const api = useService(ApiClient);
  const navigate = useNavigate();
  const t = useT('views');
  const urlOf = useFinalviewUrl();
  const store = useMemo(() => new ResourceListStore<Finalview>(api, FINALVIEW_PATH, 40), [api]);
  const actions = useObjectActions(store);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    store.setQuery({ order_by: '-created', q: query || undefined });
    void store.reload().catch(() => undefined);
  }, [store, query]);
  const columns: ListColumn<Finalview>[] = [
    { id: 'slug', name: String(t('finalviews.slug')), width: 200, render: (f) => f.slug },
    { id: 'name', name: String(t('finalviews.name')), width: 220, render: (f) => f.name },
    {
      id: 'public',
      name: String(t('finalviews.public')),
      width: 140,
      render: (f) => t(f.public ? 'list.public_on' : 'list.public_off'),
    },
    { id: 'created', name: String(t('finalviews.created')), width: 180, render: (f) => new Date(f.created).toLocaleString() },
  ];
  return (
    <div className="wb-page" data-testid="finalview-list">
      <div className="wb-toolbar">
        <H2>{t('finalviews.title')}</H2>
      </div>
      <SearchBar value={text} onChange={setText} onSubmit={setQuery} presentation="table" />
      <ObjectList
        store={store}
        presentation="table"
        columns={columns}
        emptyText={String(t(query ? 'finalviews.no_results' : 'finalviews.empty'))}
        onOpen={(f) => navigate(finalviewEditRoute(f.id))}
        renderCard={(f) => (
          <>
            <div className="wb-object-card-head">
              <span className="wb-object-card-title">{f.slug}</span>
              {f.access?.includes('write') && (
                <Button
                  size="small"
                  variant="minimal"
                  icon="trash"
                  aria-label={String(t('finalviews.delete'))}
                  onClick={(e) => (
                    e.stopPropagation(),
                    void actions.remove(f, String(t('finalviews.delete_confirm', { name: f.slug })))
                  )}
                />
              )}
            </div>
            <div>{f.name}</div>
            {urlOf(f) && <a href={urlOf(f)}>{t('finalviews.open')}</a>}
          </>
        )}
      />
    </div>
  );
});

/** The frozen view editor (spec 002 §2): its entry point name, which is all an author changes; where it came from. */
export const FinalviewEditorScreen = observer(function FinalviewEditorScreen() {
  const { id } = useParams();
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const t = useT('views');
  const urlOf = useFinalviewUrl();
  const [loaded, setLoaded] = useState<Finalview>();
  const [slug, setSlug] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const address = `${FINALVIEW_PATH}${id}/`;
  const take = (f: Finalview) => {
    setLoaded(f);
    setSlug(f.slug);
  };
  useEffect(() => {
    api.get<Finalview>(address).then(take, (e: Error) => setError(e.message));
  }, [api, address]);
  if (error && !loaded) return <Callout intent="danger">{error}</Callout>;
  if (!loaded) return <Spinner />;
  const readOnly = !loaded.access?.includes('write');
  const bad = !isValidSlug(slug);
  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      take(await api.patch<Finalview>(address, { slug }));
      notifications.success(String(t('finalviews.saved')));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  const url = urlOf(loaded);
  return (
    <div className="wb-page" data-testid="finalview-editor">
      <div className="wb-toolbar">
        <H2>{t('finalviews.editor_title', { name: loaded.slug })}</H2>
        {!readOnly && (
          <Button
            intent="primary"
            icon="floppy-disk"
            text={t('editor.save')}
            loading={saving}
            disabled={bad}
            data-testid="finalview-save"
            onClick={() => void save()}
          />
        )}
        {url && <AnchorButton icon="globe" text={t('finalviews.open')} href={url} target="_blank" />}
        <Button icon="cross" text={t('editor.close')} onClick={() => navigate(FINALVIEWS_ROUTE)} />
      </div>
      {readOnly && <Callout>{t('finalviews.read_only')}</Callout>}
      {error && <Callout intent="danger">{error}</Callout>}
      <FormGroup
        label={t('finalviews.slug')}
        labelFor="finalview-slug"
        intent={bad ? 'danger' : 'none'}
        helperText={bad ? t('errors.slug') : undefined}
      >
        <InputGroup
          id="finalview-slug"
          disabled={readOnly}
          intent={bad ? 'danger' : 'none'}
          value={slug}
          onValueChange={setSlug}
        />
      </FormGroup>
      <p>
        {t('finalviews.name')}: {loaded.name} · {t('finalviews.created')}: {new Date(loaded.created).toLocaleString()} ·{' '}
        {t('finalviews.pins')}: {Object.keys(loaded.pins).length}
      </p>
      <p>
        {t('finalviews.source')}:{' '}
        {loaded.view ? (
          <a
            href={viewEditRoute(idOf(loaded.view))}
            onClick={(e) => {
              e.preventDefault();
              navigate(viewEditRoute(idOf(loaded.view)));
            }}
          >
            {loaded.name}
          </a>
        ) : (
          t('finalviews.source_gone')
        )}
      </p>
    </div>
  );
});

/** Freeze view (spec 000 §5): asks for the entry point name and freezes the saved view. */
export function FreezeViewDialog({ viewId, onClose }: { viewId: number; onClose(): void }) {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const t = useT('views');
  const [slug, setSlug] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const bad = slug !== '' && !isValidSlug(slug);
  const freeze = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const made = await api.post<Finalview>(CREATE_FINALVIEW_PATH, { slug, view: viewId });
      notifications.success(String(t('finalviews.freeze_done')));
      navigate(finalviewEditRoute(made.id));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen icon="snowflake" title={t('finalviews.freeze_title')} onClose={onClose}>
      <DialogBody>
        <p>{t('finalviews.freeze_help')}</p>
        <FormGroup
          label={t('finalviews.slug')}
          labelFor="freeze-slug"
          intent={bad ? 'danger' : 'none'}
          helperText={bad ? t('errors.slug') : undefined}
        >
          <InputGroup id="freeze-slug" autoFocus value={slug} intent={bad ? 'danger' : 'none'} onValueChange={setSlug} />
        </FormGroup>
        {error && <Callout intent="danger">{error}</Callout>}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('finalviews.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('finalviews.freeze_confirm')}
              loading={busy}
              disabled={!slug || bad}
              data-testid="freeze-confirm"
              onClick={() => void freeze()}
            />
          </>
        }
      />
    </Dialog>
  );
}
