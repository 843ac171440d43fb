import { useEffect, useState } from '@werkbank/sdk/react';
import { Tab, Tabs } from '@werkbank/sdk/ui';
import {
  ApiClient,
  completePermissions,
  ConfigStore,
  EditorDialog,
  PermissionsEditor,
  observer,
  useEditorSave,
  useService,
  useT,
  type EditorProps,
} from '@werkbank/sdk/browser';
import { mayExecute, mayWrite } from './switchboard-list-ids';
import type { ListedSwitchboard } from './switchboard-entries';
import { SwitchboardSettingsTab } from './switchboard-settings-tab';
import { SwitchboardExecutionTab } from './switchboard-execution-tab';

/** The fields the editor writes; only changed ones are sent. */
const EDITABLE = ['name', 'description', 'automatic', 'periodic_execution', 'periodic_execution_rule'] as const;
/** spec 002 §6: a switchboard's rights in column order, labelled View, Run, Edit. */
const RIGHTS = ['read', 'execute', 'write'];

/**
 * The editor of an existing switchboard (spec 002 §2 "Switchboard editor"): tabs Settings,
 * Execution and Permissions. Read-only — every field disabled, no Save — when the reply's `access`
 * lacks 'write'; grants are changed only by the owner or a superuser. Server refusals (403
 * schedule_denied, 400 invalid_rule, …) are shown in the dialog in the user's language.
 */
export const SwitchboardSettingsEditor = observer(function SwitchboardSettingsEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const t = useT('sb-lists');
  const [loaded, setLoaded] = useState<ListedSwitchboard>();
  const [draft, setDraft] = useState<ListedSwitchboard>();
  const { error, setError, saving, run } = useEditorSave(onClose);
  const [tagsChanged, setTagsChanged] = useState(false);

  useEffect(() => {
    api.get<ListedSwitchboard>(address).then(
      (sb) => (setLoaded(sb), setDraft(sb)),
      (e: Error) => setError(e.message),
    );
  }, [api, address]);

  const readOnly = !!loaded && !mayWrite(loaded);
  const mayGrant = config.isSuperuser || loaded?.owner === config.config.auth.user;
  const patch = (p: Partial<ListedSwitchboard>) => setDraft(draft && { ...draft, ...p });
  // Tags are written at once (assign-to / remove_from); the editor only shows the new set.
  const reloadTags = () =>
    api.get<ListedSwitchboard>(address).then(
      (sb) => (
        setTagsChanged(true),
        setLoaded(loaded && { ...loaded, tags: sb.tags }),
        setDraft(draft && { ...draft, tags: sb.tags })
      ),
      (e: Error) => setError(e.message),
    );
  const changes = (): Record<string, unknown> => {
    if (!loaded || !draft) return {};
    const out: Record<string, unknown> = {};
    for (const k of EDITABLE) if (draft[k] !== loaded[k]) out[k] = k === 'name' ? draft.name.trim() : draft[k];
    // A rule matters only while time-based execution is on; changing it needs the right to run (403).
    if (!draft.periodic_execution) delete out.periodic_execution_rule;
    const grants = completePermissions(draft.permissions ?? []);
    if (mayGrant && JSON.stringify(grants) !== JSON.stringify(loaded.permissions ?? [])) out.permissions = grants;
    return out;
  };
  const save = async () => {
    const body = changes();
    if (!Object.keys(body).length) return onClose(tagsChanged);
    await run(async () => (await api.patch(address, body), true));
  };
  const labels = {
    read: String(t('permissions.read')),
    execute: String(t('permissions.execute')),
    write: String(t('permissions.write')),
  };

  return (
    <EditorDialog
      icon="flow-branch"
      width={680}
      title={t('editor.title', { name: loaded?.name ?? '' })}
      onClose={() => onClose(tagsChanged)}
      loading={!draft}
      readOnly={readOnly}
      readOnlyNotice={t('editor.read_only')}
      readOnlyTestId="switchboard-read-only"
      error={error}
      errorTestId="switchboard-editor-error"
      saving={saving}
      canSave={!!draft?.name?.trim()}
      saveTestId="switchboard-save"
      onSave={() => void save()}
    >
      {draft && (
        <Tabs id="switchboard-editor-tabs" renderActiveTabPanelOnly>
          <Tab
            id="settings"
            title={t('editor.settings')}
            panel={
              <SwitchboardSettingsTab sb={draft} readOnly={readOnly} onChange={patch} onTagsChanged={() => void reloadTags()} />
            }
          />
          <Tab
            id="execution"
            title={t('editor.execution')}
            panel={<SwitchboardExecutionTab sb={draft} readOnly={readOnly} mayExecute={mayExecute(loaded)} onChange={patch} />}
          />
          <Tab
            id="permissions"
            title={t('editor.permissions')}
            panel={
              <PermissionsEditor
                owner={draft.owner}
                rights={RIGHTS}
                labels={labels}
                readOnly={readOnly || !mayGrant}
                value={draft.permissions ?? []}
                onChange={(permissions) => patch({ permissions })}
              />
            }
          />
        </Tabs>
      )}
    </EditorDialog>
  );
});
