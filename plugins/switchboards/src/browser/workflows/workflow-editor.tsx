import { useEffect, useState } from '@werkbank/sdk/react';
import { Tab, Tabs, type TabId } from '@werkbank/sdk/ui';
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
  type PermissionEntry,
} from '@werkbank/sdk/browser';
import { WORKFLOW_PATH, type Workflow } from '../../common/switchboard-types';
import { mayWrite } from './workflow-ids';
import { slugValid, WorkflowSettingsTab, type WorkflowSettings } from './workflow-settings-tab';
import { WorkflowSwitchboardTab } from './workflow-switchboard-tab';

interface Draft extends WorkflowSettings {
  switchboard: string | null;
  permissions: PermissionEntry[];
}

const draftOf = (w: Partial<Workflow>): Draft => ({
  name: w.name ?? '',
  description: w.description ?? '',
  image: w.image ?? '',
  slug: w.slug ?? '',
  switchboard: w.switchboard ?? null,
  permissions: w.permissions ?? [],
});

/** The fields a save sends: an empty short name is none; the switchboard as the one step (spec 002 §3). */
function bodyOf(d: Draft, withPermissions: boolean): Record<string, unknown> {
  return {
    name: d.name.trim(),
    description: d.description,
    image: d.image.trim(),
    slug: d.slug.trim() || null,
    steps: d.switchboard ? [{ switchboard: d.switchboard, executor: 'default' }] : [],
    ...(withPermissions && { permissions: completePermissions(d.permissions) }),
  };
}

/** The tab that shows a refused field: the short name on Settings, the step on Switchboard. */
const tabOfField = (field?: string): TabId | undefined =>
  field?.startsWith('steps')
    ? 'switchboard'
    : field && ['name', 'slug', 'image', 'description'].includes(field)
      ? 'settings'
      : undefined;

/**
 * The workflow editor (spec 002 §2 "Workflow editor"), opened for /api/v1/workflow/ (new) or a
 * workflow's address: tabs Settings, Switchboard and Permissions (Show, Run, Edit; spec 002 §6).
 * Saves only what changed; the server's refusals (a taken short name, a switchboard the author may
 * not run) are shown on the tab of their field. Read-only when the reply's `access` lacks 'write';
 * grants are changed only by the owner or a superuser.
 */
export const WorkflowEditor = observer(function WorkflowEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const t = useT('sb-workflows');
  const isNew = address.split('?')[0] === WORKFLOW_PATH;
  const [loaded, setLoaded] = useState<Partial<Workflow> | undefined>(isNew ? {} : undefined);
  const [draft, setDraft] = useState<Draft | undefined>(isNew ? draftOf({}) : undefined);
  const [tab, setTab] = useState<TabId>('settings');
  const { error, setError, saving, run } = useEditorSave(onClose);

  useEffect(() => {
    if (isNew) return;
    api.get<Workflow>(address).then(
      (w) => (setLoaded(w), setDraft(draftOf(w))),
      (e: Error) => setError(e.message),
    );
  }, [api, address, isNew]);

  const readOnly = !!loaded && !isNew && !mayWrite(loaded);
  const mayGrant = isNew || config.isSuperuser || loaded?.owner === config.config.auth.user;
  const patch = (p: Partial<Draft>) => setDraft((d) => d && { ...d, ...p });
  const save = async () => {
    if (!draft || !loaded) return;
    const next = bodyOf(draft, mayGrant);
    const before = bodyOf(draftOf(loaded), mayGrant);
    const changes = Object.fromEntries(Object.entries(next).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v)));
    if (!isNew && !Object.keys(changes).length) return onClose(false);
    await run(
      async () => {
        if (isNew) await api.post(WORKFLOW_PATH, next);
        else await api.patch(address, changes);
        return true;
      },
      (failure: Error & { field?: string }) => setTab((current) => tabOfField(failure.field) ?? current),
    );
  };

  return (
    <EditorDialog
      icon="flow-linear"
      width={680}
      title={isNew ? t('editor.new') : t('editor.edit_title', { name: loaded?.name ?? '' })}
      onClose={() => onClose(false)}
      loading={!draft}
      readOnly={readOnly}
      readOnlyNotice={t('editor.read_only')}
      readOnlyTestId="workflow-editor-read-only"
      error={error}
      errorTestId="workflow-editor-error"
      saving={saving}
      canSave={!!draft?.name.trim() && slugValid(draft.slug.trim())}
      saveTestId="workflow-save"
      onSave={() => void save()}
    >
      {draft && (
        <Tabs id="workflow-editor-tabs" renderActiveTabPanelOnly selectedTabId={tab} onChange={setTab}>
          <Tab
            id="settings"
            title={t('editor.settings')}
            panel={<WorkflowSettingsTab value={draft} readOnly={readOnly} onChange={patch} />}
          />
          <Tab
            id="switchboard"
            title={t('editor.switchboard')}
            panel={
              <WorkflowSwitchboardTab
                value={draft.switchboard}
                readOnly={readOnly}
                onChange={(switchboard) => patch({ switchboard })}
                onNavigate={() => onClose(false)}
              />
            }
          />
          <Tab
            id="permissions"
            title={t('editor.permissions')}
            panel={
              <PermissionsEditor
                owner={isNew ? config.config.auth.user : loaded?.owner}
                readOnly={readOnly || !mayGrant}
                rights={['read', 'execute', 'write']}
                labels={{
                  read: String(t('editor.right_read')),
                  execute: String(t('editor.right_execute')),
                  write: String(t('editor.right_write')),
                }}
                value={draft.permissions}
                onChange={(permissions) => patch({ permissions })}
              />
            }
          />
        </Tabs>
      )}
    </EditorDialog>
  );
});
