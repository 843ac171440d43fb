import { useEffect, useState, useNavigate, useParams } from '@werkbank/sdk/react';
import { Button, Callout, H2, Spinner, Tab, Tabs } from '@werkbank/sdk/ui';
import {
  ApiClient,
  completePermissions,
  ConfigStore,
  NavigationStore,
  NotificationService,
  ObjectEvents,
  PublicationPermissions,
  observer,
  useRecentlyUsed,
  useService,
  useT,
} from '@werkbank/sdk/browser';
import { viewAddress } from '../common/view-rules';
import type { CameraPosition } from '../common/view-tree';
import { editedView, type View } from '../common/view-types';
import { VIEW_MRU_KEY, VIEW_MRU_LIMIT, VIEW_TAB_KEY, VIEWS_ROUTE } from '../common/views-ids';
import { LayerTreeEditor } from './layer-tree-editor';
import { ViewHomeTab } from './view-home-tab';
import { ViewPoiTab } from './view-poi-tab';
import { ViewPreview } from './view-preview';
import { ViewSettingsTab } from './view-settings-tab';
import { ViewToolsTab } from './view-tools-tab';
import { ViewTranslationsTab } from './view-translations-tab';
import { ViewAnalyticsTab } from './view-analytics';
import { FreezeViewDialog } from './finalview-screens';

/**
 * The view editor at /views/edit/{id} (spec 002 §2): tabs Settings, Layer, Home view, POI,
 * Permissions, Tools, Translations (with the view translation editor component) and Analytics (with
 * the analytics component), the active tab
 * kept in navigation state (falling back to the first); beside them the live preview of the draft.
 * Save sends the changed fields; Close goes back to the list. Read-only without write access.
 */
const ViewEditorScreen = observer(function ViewEditorScreen() {
  const { id } = useParams();
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const nav = useService(NavigationStore);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const recent = useRecentlyUsed(VIEW_MRU_KEY, VIEW_MRU_LIMIT);
  const t = useT('views');
  const [loaded, setLoaded] = useState<View>();
  const [draft, setDraft] = useState<View>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [camera, setCamera] = useState<CameraPosition | null>(null);
  const [freezing, setFreezing] = useState(false);
  const address = viewAddress(Number(id));

  const take = (v: View) => {
    setLoaded(v);
    setDraft(v);
    recent.touch({ id: v.id, name: v.name });
  };
  useEffect(() => {
    api.get<View>(address).then(take, (e: Error) => setError(e.message));
  }, [api, address]);

  if (error && !loaded) return <Callout intent="danger">{error}</Callout>;
  if (!loaded || !draft) return <Spinner />;
  const readOnly = !loaded.access?.includes('write');
  const mayGrant = config.isSuperuser || loaded.owner === config.config.auth.user;
  const patch = (p: Partial<View>) => setDraft({ ...draft, ...p });
  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      const changes = editedView(loaded, draft, mayGrant);
      if (changes.permissions) changes.permissions = completePermissions(changes.permissions as never);
      if (Object.keys(changes).length) take(await api.patch<View>(address, changes));
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
        <ViewSettingsTab
          view={draft}
          readOnly={readOnly}
          onChange={patch}
          onTagsChanged={() =>
            void api
              .get<View>(address)
              .then((v) => (setLoaded({ ...loaded, tags: v.tags }), setDraft((d) => (d ? { ...d, tags: v.tags } : d))))
          }
          onImageStored={(image) => (setLoaded({ ...loaded, image }), setDraft((d) => (d ? { ...d, image } : d)))}
        />
      ),
    },
    {
      id: 'layer',
      title: t('editor.layer'),
      panel: <LayerTreeEditor tree={draft.layergroup} readOnly={readOnly} onChange={(layergroup) => patch({ layergroup })} />,
    },
    {
      id: 'home',
      title: t('editor.home'),
      panel: (
        <ViewHomeTab
          home={draft.home}
          config={draft.config}
          readOnly={readOnly}
          previewCamera={camera}
          onHome={(home) => patch({ home })}
          onConfig={(c) => patch({ config: c })}
        />
      ),
    },
    {
      id: 'poi',
      title: t('editor.poi'),
      panel: (
        <ViewPoiTab
          tree={draft.poigroup}
          layers={draft.layergroup}
          readOnly={readOnly}
          previewCamera={camera}
          onChange={(poigroup) => patch({ poigroup })}
        />
      ),
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
          onPermissions={(permissions) => patch({ permissions: permissions as View['permissions'] })}
          testId="view"
        />
      ),
    },
    {
      id: 'tools',
      title: t('editor.tools'),
      panel: <ViewToolsTab config={draft.config} readOnly={readOnly} onChange={(c) => patch({ config: c })} />,
    },
    ...(config.isEnabled('view_translation_editor')
      ? [
          {
            id: 'translations',
            title: t('editor.translations'),
            panel: <ViewTranslationsTab view={loaded} readOnly={readOnly} />,
          },
        ]
      : []),
    // spec 002 §2: only with the analytics component (the view exists: the editor opens saved views).
    // spec 002 §2: only with the events component.
    ...(config.isEnabled('events')
      ? [
          {
            id: 'events',
            title: t('events.tab'),
            panel: <ObjectEvents filter={{ view_id: loaded.id }} emptyText={String(t('events.empty'))} testId="view-events" />,
          },
        ]
      : []),
    ...(config.isEnabled('analytics')
      ? [{ id: 'analytics', title: t('analytics.tab'), panel: <ViewAnalyticsTab viewId={loaded.id} /> }]
      : []),
  ];
  const kept = nav.get<string>(VIEW_TAB_KEY, 'settings');
  const active = tabs.some((tab) => tab.id === kept) ? kept : tabs[0].id;
  return (
    <div className="wb-page" data-testid="view-editor">
      <div className="wb-toolbar">
        <H2>{t('editor.title', { name: loaded.name })}</H2>
        {!readOnly && (
          <Button
            intent="primary"
            icon="floppy-disk"
            text={t('editor.save')}
            loading={saving}
            data-testid="view-save"
            onClick={() => void save()}
          />
        )}
        <Button icon="snowflake" text={t('finalviews.freeze')} data-testid="view-freeze" onClick={() => setFreezing(true)} />
        <Button icon="cross" text={t('editor.close')} data-testid="view-close" onClick={() => navigate(VIEWS_ROUTE)} />
      </div>
      {freezing && <FreezeViewDialog viewId={loaded.id} onClose={() => setFreezing(false)} />}
      {readOnly && <Callout>{t('editor.read_only')}</Callout>}
      {error && <Callout intent="danger">{error}</Callout>}
      <div className="wb-view-editor-layout">
        <div className="wb-view-editor-main">
          <Tabs
            id="view-editor-tabs"
            renderActiveTabPanelOnly
            selectedTabId={active}
            onChange={(tab) => nav.set(VIEW_TAB_KEY, String(tab))}
          >
            {tabs.map((tab) => (
              <Tab key={tab.id} id={tab.id} title={tab.title} panel={tab.panel} />
            ))}
          </Tabs>
        </div>
        <ViewPreview view={draft} onCamera={setCamera} />
      </div>
    </div>
  );
});

export default ViewEditorScreen;
