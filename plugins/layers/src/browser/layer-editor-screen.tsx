import { useEffect, useState, useNavigate, useParams } from '@werkbank/sdk/react';
import { Button, Callout, H2, Spinner, Tab, Tabs } from '@werkbank/sdk/ui';
import {
  ApiClient,
  completePermissions,
  ConfigStore,
  NotificationService,
  PermissionsEditor,
  Licensed,
  observer,
  useRecentlyUsed,
  useService,
  useT,
} from '@werkbank/sdk/browser';
import { LAYER_PATH, type Layer } from '../common/layers-api';
import { LAYER_MRU_KEY, LAYER_MRU_LIMIT, LAYERS_ROUTE } from '../common/layers-ids';
import { editedLayer } from '../common/layer-edit';
import { LayerSettingsTab } from './layer-settings-tab';
import { LayerServicesTab } from './layer-services-tab';
import { LayerDataTab, type DraftPile } from './layer-data-tab';
import { LayerPresentationTab } from './layer-presentation-tab';
import { LayerSelectionTab } from './layer-selection-tab';
import { LayerFilterTab } from './layer-filter-tab';
import { LayerEventsTab } from './layer-events-tab';
import { LayerMetadataTab } from './layer-metadata-tab';
import { LayerTilesTab } from './layer-tiles-tab';
import { useLayerAttributes } from './use-layer-attributes';
import { useLinkedStyle } from './style-source';

/**
 * The layer editor at /layers/edit/{id} (spec 001 §2.2): tabs Settings, Data, Services, Presentation
 * (the map style, decision 0061), Selection window, Filter (gated), Permissions, Events (gated) and
 * Metadata (gated); Save sends the changed fields; Close goes back to the list (spec 000 §2: an /edit/
 * route closes to its parent). Read-only when the reply's `access` lacks 'write'.
 */
const LayerEditorScreen = observer(function LayerEditorScreen() {
  const { id } = useParams();
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const notifications = useService(NotificationService);
  const navigate = useNavigate();
  const recent = useRecentlyUsed(LAYER_MRU_KEY, LAYER_MRU_LIMIT);
  const t = useT('layers');
  const [loaded, setLoaded] = useState<Layer>();
  const [draft, setDraft] = useState<Layer>();
  const [piles, setPiles] = useState<DraftPile[]>([]);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const address = `${LAYER_PATH}${id}/`;
  const { attributes } = useLayerAttributes(loaded?.id);
  // Decision 0068: the linked style datum's edits are written into its style depot on Save.
  const linkedStyle = useLinkedStyle(draft?.style_datum ?? null);

  const take = (l: Layer) => {
    setLoaded(l);
    setDraft(l);
    setPiles(l.layerpiles);
    recent.touch({ id: l.id, name: l.name });
  };
  useEffect(() => {
    api.get<Layer>(address).then(take, (e: Error) => setError(e.message));
  }, [api, address]);

  if (error && !loaded) return <Callout intent="danger">{error}</Callout>;
  if (!loaded || !draft) return <Spinner />;
  const readOnly = !loaded.access?.includes('write');
  const mayGrant = config.isSuperuser || loaded.owner === config.config.auth.user;
  const patch = (p: Partial<Layer>) => setDraft({ ...draft, ...p });
  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      await linkedStyle.save(loaded);
      const changes = editedLayer(loaded, draft, piles, mayGrant);
      if (changes.permissions) changes.permissions = completePermissions(changes.permissions as never);
      if (Object.keys(changes).length) take(await api.patch<Layer>(address, changes));
      notifications.success(String(t('editor.saved')));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="wb-page" data-testid="layer-editor">
      <div className="wb-toolbar">
        <H2>{t('editor.title', { name: loaded.name })}</H2>
        {!readOnly && (
          <Button
            intent="primary"
            icon="floppy-disk"
            text={t('core:common.save')}
            loading={saving}
            data-testid="layer-save"
            onClick={() => void save()}
          />
        )}
        <Button icon="cross" text={t('editor.close')} data-testid="layer-close" onClick={() => navigate(LAYERS_ROUTE)} />
      </div>
      {readOnly && <Callout data-testid="layer-read-only">{t('editor.read_only')}</Callout>}
      {error && <Callout intent="danger">{error}</Callout>}
      <Tabs id="layer-editor-tabs" renderActiveTabPanelOnly>
        <Tab
          id="settings"
          title={t('editor.settings')}
          panel={
            <LayerSettingsTab
              layer={draft}
              readOnly={readOnly}
              onChange={patch}
              onTagsChanged={() =>
                void api.get<Layer>(address).then((l) => {
                  setLoaded({ ...loaded, tags: l.tags });
                  setDraft((d) => (d ? { ...d, tags: l.tags } : d));
                })
              }
              onLegendChanged={(legend) => {
                setLoaded({ ...loaded, legend });
                setDraft((d) => (d ? { ...d, legend } : d));
              }}
            />
          }
        />
        <Tab
          id="data"
          title={t('editor.data')}
          panel={<LayerDataTab layer={draft} piles={piles} readOnly={readOnly} onChange={setPiles} />}
        />
        {draft.type === 'pmtiles' && (
          <Tab
            id="tiles"
            title={t('tabs.tiles')}
            panel={
              <LayerTilesTab
                layer={draft}
                saved={loaded}
                readOnly={readOnly}
                onChange={patch}
                onBuilt={(tile_archive) => {
                  const built = {
                    tile_archive,
                    persistent_size: tile_archive.size,
                    persistent_size_modified: tile_archive.built,
                  };
                  setLoaded({ ...loaded, ...built });
                  setDraft((d) => (d ? { ...d, ...built } : d));
                }}
              />
            }
          />
        )}
        <Tab id="services" title={t('editor.services')} panel={<LayerServicesTab layer={loaded} />} />
        <Tab
          id="presentation"
          title={t('editor.presentation')}
          panel={
            <LayerPresentationTab
              layer={draft}
              readOnly={readOnly}
              onChange={(style) => patch({ style })}
              source={{
                linked: linkedStyle.linked,
                onLinkedChange: linkedStyle.setStyle,
                onLink: (style_datum) => patch({ style_datum }),
                onSavedAs: (saved) => {
                  if (!saved) return;
                  setLoaded(saved);
                  setDraft((d) => (d ? { ...d, style_datum: saved.style_datum, revision: saved.revision } : d));
                },
              }}
            />
          }
        />
        <Tab
          id="selection"
          title={t('tabs.selection')}
          panel={<LayerSelectionTab layer={draft} attributes={attributes} readOnly={readOnly} onChange={patch} />}
        />
        <Tab
          id="filter"
          title={t('tabs.filter')}
          panel={
            <Licensed component="filter_editor">
              <LayerFilterTab layer={draft} attributes={attributes} readOnly={readOnly} onChange={patch} />
            </Licensed>
          }
        />
        <Tab
          id="permissions"
          title={t('editor.permissions')}
          panel={
            <PermissionsEditor
              owner={loaded.owner}
              readOnly={readOnly || !mayGrant}
              value={draft.permissions ?? []}
              onChange={(permissions) => patch({ permissions: permissions as Layer['permissions'] })}
            />
          }
        />
        <Tab
          id="events"
          title={t('tabs.events')}
          panel={
            <Licensed component="events">
              <LayerEventsTab layerId={loaded.id} />
            </Licensed>
          }
        />
        <Tab
          id="metadata"
          title={t('tabs.metadata')}
          panel={
            <Licensed component="metadata">
              <LayerMetadataTab layer={draft} readOnly={readOnly} onChange={patch} />
            </Licensed>
          }
        />
      </Tabs>
    </div>
  );
});

export default LayerEditorScreen;
