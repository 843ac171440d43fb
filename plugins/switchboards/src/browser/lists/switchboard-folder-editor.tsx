import { useEffect, useState } from '@werkbank/sdk/react';
import { FormGroup, InputGroup } from '@werkbank/sdk/ui';
import { ApiClient, EditorDialog, observer, useEditorSave, useService, useT, type EditorProps } from '@werkbank/sdk/browser';
import { SWITCHBOARD_FOLDER_PATH, type SwitchboardFolder } from '../../common/switchboard-types';
import { mayWrite } from './switchboard-list-ids';

/**
 * The switchboard folder editor (spec 002 §2, §3: a folder has a name). Opened for
 * /api/v1/switchboardfolder/ (a new folder) or a folder's address; read-only when the reply's
 * `access` lacks 'write' (only its owner or a superuser renames it).
 */
export const SwitchboardFolderEditor = observer(function SwitchboardFolderEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const t = useT('sb-lists');
  const isNew = address.split('?')[0] === SWITCHBOARD_FOLDER_PATH;
  const [folder, setFolder] = useState<Partial<SwitchboardFolder> | undefined>(
    isNew ? { name: '', access: ['read', 'write'] } : undefined,
  );
  const { error, setError, saving, run } = useEditorSave(onClose);

  useEffect(() => {
    if (!isNew) api.get<SwitchboardFolder>(address).then(setFolder, (e: Error) => setError(e.message));
  }, [api, address, isNew]);

  const readOnly = !!folder && !mayWrite(folder);
  const save = async () => {
    const name = folder?.name?.trim();
    if (!name || saving) return;
    await run(async () => {
      if (isNew) await api.post(SWITCHBOARD_FOLDER_PATH, { name });
      else await api.patch(address, { name });
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
      readOnlyTestId="folder-read-only"
      error={error}
      saving={saving}
      canSave={!!folder?.name?.trim()}
      saveTestId="folder-save"
      onSave={() => void save()}
    >
      {folder && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <FormGroup label={t('folder.name')} labelFor="switchboard-folder-name">
            <InputGroup
              id="switchboard-folder-name"
              autoFocus={!readOnly}
              disabled={readOnly}
              value={folder.name ?? ''}
              onValueChange={(name) => setFolder({ ...folder, name })}
            />
          </FormGroup>
        </form>
      )}
    </EditorDialog>
  );
});
