import { useEffect, useMemo, useState, useNavigate, useParams } from '@werkbank/sdk/react';
import { AnchorButton, Button, Callout, FormGroup, H2, InputGroup, Spinner, Tab, Tabs, TextArea } from '@werkbank/sdk/ui';
import {
  ApiClient,
  completePermissions,
  ConfigStore,
  NavigationStore,
  NotificationService,
  ObjectList,
  PublicationPermissions,
  ResourceListStore,
  SearchBar,
  observer,
  useObjectActions,
  useService,
  useT,
  type ListColumn,
  type Presentation,
} from '@werkbank/sdk/browser';
import { isValidSlug } from '@werkbank/plugin-layers/api';
import { PORTAL_PATH, PORTALS_ROUTE, portalEditRoute, portalPageAddress, type Portal } from '../common/portal-types';
import { PortalLayersTab, PortalViewsTab } from './portal-entry-editors';

const PRESENTATION_KEY = 'portal_presentation';
const TAB_KEY = 'portal_editor_tab';

/** /portals/ (spec 000 §2): the portals, searchable, as cards or a table; a new portal opens in its editor. */
export const PortalListScreen = observer(function PortalListScreen() {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const t = useT('portals');
  const store = useMemo(() => new ResourceListStore<Portal>(api, PORTAL_PATH, 40), [api]);
  const actions = useObjectActions(store);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const presentation = nav.get<Presentation>(PRESENTATION_KEY, 'cards');
  useEffect(() => {
    store.setQuery({ order_by: 'name', q: query || undefined });
    void store.reload().catch(() => undefined);
  }, [store, query]);
  const create = async () => {
    try {
      const made = await api.post<Portal>(PORTAL_PATH, { name: String(t('list.new_name')) });
      notifications.success(String(t('list.created')));
      navigate(portalEditRoute(made.id));
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  const status = (p: Portal) => t(p.public ? 'list.public_on' : 'list.public_off');
  const columns: ListColumn<Portal>[] = [
    { id: 'name', name: String(t('editor.name')), width: 240, render: (p) => p.name },
    { id: 'slug', name: String(t('list.slug')), width: 160, render: (p) => p.slug },
    { id: 'public', name: String(t('list.status')), width: 140, render: status },
    { id: 'entries', name: String(t('list.entries')), width: 140, render: (p) => `${p.views.length} / ${p.layers.length}` },
    { id: 'modified', name: String(t('list.modified')), width: 180, render: (p) => new Date(p.modified).toLocaleString() },
  ];
  return (
    <div className="wb-page" data-testid="portal-list">
      <div className="wb-toolbar">
        <H2>{t('list.title')}</H2>
        <Button intent="primary" icon="add" text={t('list.new')} data-testid="new-portal" onClick={() => void create()} />
      </div>
      <SearchBar
        value={text}
        onChange={setText}
        onSubmit={setQuery}
        presentation={presentation}
        onPresentationChange={(p) => nav.set(PRESENTATION_KEY, p)}
      />
      <ObjectList
        store={store}
        presentation={presentation}
        columns={columns}
        emptyText={String(t(query ? 'list.no_results' : 'list.empty'))}
        onOpen={(p) => navigate(portalEditRoute(p.id))}
        renderCard={(p) => (
          <>
            <div className="wb-object-card-head">
              <span className="wb-object-card-title">{p.name}</span>
              {p.access?.includes('write') && (
                <Button
                  size="small"
                  variant="minimal"
                  icon="trash"
                  aria-label={String(t('list.delete'))}
                  onClick={(e) => (
                    e.stopPropagation(),
                    void actions.remove(p, String(t('list.delete_confirm', { name: p.name })))
                  )}
                />
              )}
            </div>
            <div>{status(p)}</div>
          </>
        )}
      />
    </div>
  );
});

/** The portal editor (spec 002 §2): Settings (with the advanced configuration), Views, Layer, Permissions. */
export const PortalEditorScreen = observer(function PortalEditorScreen() {
  const { id } = useParams();
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const nav = useService(NavigationStore);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const t = useT('portals');
  const [loaded, setLoaded] = useState<Portal>();
  const [draft, setDraft] = useState<Portal>();
  const [attrText, setAttrText] = useState('{}');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const address = `${PORTAL_PATH}${id}/`;
  const take = (p: Portal) => {
    setLoaded(p);
    setDraft(p);
    setAttrText(JSON.stringify(p.attr ?? {}, null, 2));
  };
  useEffect(() => {
    api.get<Portal>(address).then(take, (e: Error) => setError(e.message));
  }, [api, address]);
  if (error && !loaded) return <Callout intent="danger">{error}</Callout>;
  if (!loaded || !draft) return <Spinner />;
  const readOnly = !loaded.access?.includes('write');
  const mayGrant = config.isSuperuser || loaded.owner === config.config.auth.user;
  let attr: Record<string, unknown> | undefined;
  try {
    const v = JSON.parse(attrText) as unknown;
    attr = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    attr = undefined;
  }
  const slugBad = draft.slug !== '' && !isValidSlug(draft.slug);
  const patch = (p: Partial<Portal>) => setDraft({ ...draft, ...p });
  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      const changes: Record<string, unknown> = {};
      for (const key of ['name', 'slug', 'views', 'layers'] as const)
        if (!same(loaded[key], draft[key])) changes[key] = draft[key];
      if (!same(loaded.attr, attr)) changes.attr = attr;
      if (loaded.public !== draft.public) changes.public = draft.public;
      if (mayGrant && !same(loaded.permissions, draft.permissions))
        changes.permissions = completePermissions(draft.permissions as never);
      if (Object.keys(changes).length) take(await api.patch<Portal>(address, changes));
      notifications.success(String(t('editor.saved')));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  const tabs = [
    {
      id: 'settings',
      title: t('editor.settings'),
      panel: (
        <div data-testid="portal-settings">
          <FormGroup label={t('editor.name')} labelFor="portal-name">
            <InputGroup id="portal-name" disabled={readOnly} value={draft.name} onValueChange={(name) => patch({ name })} />
          </FormGroup>
          <FormGroup
            label={t('editor.slug')}
            labelFor="portal-slug"
            intent={slugBad ? 'danger' : 'none'}
            helperText={slugBad ? t('errors.slug') : t('editor.slug_help')}
          >
            <InputGroup
              id="portal-slug"
              disabled={readOnly}
              intent={slugBad ? 'danger' : 'none'}
              value={draft.slug}
              onValueChange={(slug) => patch({ slug })}
            />
          </FormGroup>
          <FormGroup
            label={t('editor.advanced')}
            labelFor="portal-attr"
            intent={attr ? 'none' : 'danger'}
            helperText={attr ? t('editor.advanced_help') : t('editor.advanced_bad')}
          >
            <TextArea
              id="portal-attr"
              fill
              rows={6}
              disabled={readOnly}
              value={attrText}
              onChange={(e) => setAttrText(e.currentTarget.value)}
            />
          </FormGroup>
        </div>
      ),
    },
    {
      id: 'views',
      title: t('editor.views'),
      panel: <PortalViewsTab views={draft.views} readOnly={readOnly} onChange={(views) => patch({ views })} />,
    },
    {
      id: 'layer',
      title: t('editor.layer'),
      panel: <PortalLayersTab layers={draft.layers} readOnly={readOnly} onChange={(layers) => patch({ layers })} />,
    },
    {
      id: 'permissions',
      title: t('editor.permissions'),
      panel: (
        <PublicationPermissions
          owner={loaded.owner}
          isPublic={draft.public}
          permissions={draft.permissions ?? []}
          readOnly={readOnly}
          mayGrant={mayGrant}
          onPublic={(on) => patch({ public: on })}
          onPermissions={(permissions) => patch({ permissions: permissions as Portal['permissions'] })}
          testId="portal"
        />
      ),
    },
  ];
  const kept = nav.get<string>(TAB_KEY, 'settings');
  const active = tabs.some((tab) => tab.id === kept) ? kept : tabs[0].id;
  return (
    <div className="wb-page" data-testid="portal-editor">
      <div className="wb-toolbar">
        <H2>{t('editor.title', { name: loaded.name })}</H2>
        {!readOnly && (
          <Button
            intent="primary"
            icon="floppy-disk"
            text={t('editor.save')}
            loading={saving}
            disabled={!attr || slugBad}
            data-testid="portal-save"
            onClick={() => void save()}
          />
        )}
        {loaded.slug && (
          <AnchorButton icon="share" text={t('list.open_page')} href={portalPageAddress(loaded.slug)} target="_blank" />
        )}
        <Button icon="cross" text={t('editor.close')} onClick={() => navigate(PORTALS_ROUTE)} />
      </div>
      {readOnly && <Callout>{t('editor.read_only')}</Callout>}
      {error && <Callout intent="danger">{error}</Callout>}
      <Tabs
        id="portal-editor-tabs"
        renderActiveTabPanelOnly
        selectedTabId={active}
        onChange={(tab) => nav.set(TAB_KEY, String(tab))}
      >
        {tabs.map((tab) => (
          <Tab key={tab.id} id={tab.id} title={tab.title} panel={tab.panel} />
        ))}
      </Tabs>
    </div>
  );
});
