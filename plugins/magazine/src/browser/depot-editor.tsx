import { useEffect, useState } from '@werkbank/sdk/react';
import { Tab, Tabs } from '@werkbank/sdk/ui';
import {
  ApiClient,
  completePermissions,
  ConfigStore,
  EditorDialog,
  Licensed,
  NavigationStore,
  PermissionsEditor,
  observer,
  useEditorSave,
  useService,
  useT,
  type EditorProps,
} from '@werkbank/sdk/browser';
import { DEPOT_PATH, mayWrite, type Depot } from '../common/magazine-types';
import { DEPOT_FOLDER_KEY } from '../common/magazine-ids';
import { changedFields } from '../common/datum-fields';
import { DepotSettingsTab } from './depot-settings-tab';
import { DepotStyleTab } from './depot-style-tab';
import { cleanMetadata } from './metadata-editor';
import { DepotMetadataEditor } from '../common/magazine-api';

const EDITABLE = ['name', 'description', 'folder', 'style_depot'] as const;

/**
 * The depot editor (spec 002 §2 "Depot editor"): tabs Settings, Permissions (when the magazine
 * component is on, else the unavailable notice), Style and Metadata (when the metadata component is
 * on). Opened for /api/v1/depot/ (a new depot in the folder the list shows) or a depot's address;
 * read-only — every field disabled, no Save — when the reply's `access` lacks 'write'.
 */
export const DepotEditor = observer(function DepotEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const nav = useService(NavigationStore);
  const t = useT('magazine');
  const MetadataTab = useService(DepotMetadataEditor);
  const isNew = address.split('?')[0] === DEPOT_PATH;
  const blank: Partial<Depot> = {
    name: '',
    description: '',
    content_type: '',
    folder: nav.get<string | null>(DEPOT_FOLDER_KEY, null),
    style_depot: null,
    metadata: null,
    permissions: [],
  };
  const [loaded, setLoaded] = useState<Partial<Depot> | undefined>(isNew ? blank : undefined);
  const [depot, setDepot] = useState<Partial<Depot> | undefined>(loaded);
  const { error, setError, saving, run } = useEditorSave(onClose);

  useEffect(() => {
    if (isNew) return;
    api.get<Depot>(address).then(
      (d) => (setLoaded(d), setDepot(d)),
      (e: Error) => setError(e.message),
    );
  }, [api, address, isNew]);

  const readOnly = !!loaded && !mayWrite(loaded);
  const mayGrant = isNew || config.isSuperuser || loaded?.owner === config.config.auth.user;
  const patch = (p: Partial<Depot>) => setDepot({ ...depot, ...p });
  const save = async () => {
    if (!depot || !loaded) return;
    await run(async () => {
      const next: Record<string, unknown> = Object.fromEntries(EDITABLE.map((k) => [k, depot[k] ?? (k === 'name' ? '' : null)]));
      if (config.isEnabled('metadata')) next.metadata = cleanMetadata(depot.metadata);
      if (mayGrant && config.isEnabled('magazine')) next.permissions = completePermissions(depot.permissions ?? []);
      const changes = changedFields(loaded as Record<string, unknown>, next);
      if (isNew) await api.post(DEPOT_PATH, { ...next, content_type: depot.content_type });
      else if (Object.keys(changes).length) await api.patch(address, changes);
      else return false;
      return true;
    });
  };

  return (
    <EditorDialog
      icon="box"
      width={640}
      title={isNew ? t('depot.new') : t('depot.edit_title', { name: loaded?.name ?? '' })}
      onClose={() => onClose(false)}
      loading={!depot}
      readOnly={readOnly}
      readOnlyNotice={t('depot.read_only')}
      readOnlyTestId="depot-editor-read-only"
      error={error}
      saving={saving}
      canSave={!!depot?.name?.trim() && !!depot?.content_type}
      saveTestId="depot-save"
      onSave={save}
    >
      {depot && (
        <Tabs id="depot-editor-tabs" renderActiveTabPanelOnly>
          <Tab
            id="settings"
            title={t('editor.settings')}
            panel={<DepotSettingsTab depot={depot} isNew={isNew} readOnly={readOnly} onChange={patch} />}
          />
          <Tab
            id="permissions"
            title={t('editor.permissions')}
            panel={
              <Licensed component="magazine">
                <PermissionsEditor
                  owner={isNew ? config.config.auth.user : depot.owner}
                  readOnly={readOnly || !mayGrant}
                  value={depot.permissions ?? []}
                  onChange={(permissions) => patch({ permissions })}
                />
              </Licensed>
            }
          />
          <Tab
            id="style"
            title={t('editor.style')}
            panel={
              <DepotStyleTab
                value={depot.style_depot ?? null}
                disabled={readOnly}
                onChange={(style_depot) => patch({ style_depot })}
              />
            }
          />
          <Tab
            id="metadata"
            title={t('editor.metadata')}
            panel={
              <Licensed component="metadata">
                <MetadataTab
                  depot={isNew ? undefined : address}
                  value={depot.metadata ?? null}
                  readOnly={readOnly}
                  onChange={(metadata) => patch({ metadata })}
                />
              </Licensed>
            }
          />
        </Tabs>
      )}
    </EditorDialog>
  );
});
