import { useEffect, useState } from '@werkbank/sdk/react';
import { FormGroup, InputGroup } from '@werkbank/sdk/ui';
import {
  ApiClient,
  completePermissions,
  ConfigStore,
  EditorDialog,
  NavigationStore,
  PermissionsEditor,
  observer,
  useEditorSave,
  useService,
  useT,
  type EditorProps,
} from '@werkbank/sdk/browser';
import { FOLDER_PATH, idOf, mayWrite, type DepotFolder } from '../common/magazine-types';
import { DEPOT_FOLDER_KEY } from '../common/magazine-ids';
import { DepotFolderSelect } from './depot-folder-select';

/**
 * The depot folder editor (spec 002 §2): name, parent folder (none, or any folder but this one and
 * its descendants) and permissions. Opened for /api/v1/depotfolder/ (new, in the folder the list
 * shows) or a folder's address; read-only — fields disabled, no Save — when the reply's `access`
 * lacks 'write' (sub-folder menus come from the tree, which does not carry it).
 */
export const DepotFolderEditor = observer(function DepotFolderEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const nav = useService(NavigationStore);
  const t = useT('magazine');
  const isNew = address.split('?')[0] === FOLDER_PATH;
  const [folder, setFolder] = useState<Partial<DepotFolder> | undefined>(
    isNew ? { name: '', parent: nav.get<string | null>(DEPOT_FOLDER_KEY, null), permissions: [] } : undefined,
  );
  const { error, setError, saving, run } = useEditorSave(onClose);

  useEffect(() => {
    if (!isNew) api.get<DepotFolder>(address).then(setFolder, (e: Error) => setError(e.message));
  }, [api, address, isNew]);

  const readOnly = !!folder && !mayWrite(folder);
  const mayGrant = isNew || config.isSuperuser || folder?.owner === config.config.auth.user;
  const save = async () => {
    if (!folder) return;
    await run(async () => {
      const body: Record<string, unknown> = { name: folder.name?.trim(), parent: folder.parent ?? null };
      if (mayGrant) body.permissions = completePermissions(folder.permissions ?? []);
      if (isNew) await api.post(FOLDER_PATH, body);
      else await api.patch(address, body);
      return true;
    });
  };

  return (
    <EditorDialog
      icon="folder-close"
      title={isNew ? t('folder.new') : t('folder.edit_title', { name: folder?.name ?? '' })}
      onClose={() => onClose(false)}
      loading={!folder}
      readOnly={readOnly}
      readOnlyNotice={t('folder.read_only')}
      readOnlyTestId="depotfolder-read-only"
      error={error}
      saving={saving}
      canSave={!!folder?.name?.trim()}
      saveTestId="depotfolder-save"
      onSave={save}
    >
      {folder && (
        <>
          <FormGroup label={t('folder.name')} labelFor="depotfolder-name">
            <InputGroup
              id="depotfolder-name"
              autoFocus={!readOnly}
              disabled={readOnly}
              value={folder.name ?? ''}
              onValueChange={(name) => setFolder({ ...folder, name })}
            />
          </FormGroup>
          <FormGroup label={t('folder.parent')} labelFor="depotfolder-parent">
            <DepotFolderSelect
              id="depotfolder-parent"
              value={folder.parent ?? null}
              excludeSubtreeOf={isNew ? undefined : idOf(address)}
              disabled={readOnly}
              onChange={(parent) => setFolder({ ...folder, parent })}
            />
          </FormGroup>
          <FormGroup label={t('editor.permissions')}>
            <PermissionsEditor
              owner={isNew ? config.config.auth.user : folder.owner}
              readOnly={readOnly || !mayGrant}
              value={folder.permissions ?? []}
              onChange={(permissions) => setFolder({ ...folder, permissions })}
            />
          </FormGroup>
        </>
      )}
    </EditorDialog>
  );
});
