import { useEffect, useState } from '@werkbank/sdk/react';
import { Checkbox, FormGroup, InputGroup, Tab, Tabs, type TabId } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  EditorDialog,
  observer,
  useEditorSave,
  useService,
  useT,
  type EditorProps,
} from '@werkbank/sdk/browser';
import { GROUP_PATH } from '../../common/admin-paths';
import type { GroupRecord } from '../../common/group-rules';
import { changedFields } from '../../common/user-rules';
import { usePermissionLabels } from '../use-admin-data';
import { PermissionLabel } from '../permission-label';

interface Draft {
  name: string;
  group_permissions: string[];
}

const bodyOf = (d: Draft) => ({ name: d.name.trim(), group_permissions: d.group_permissions });

/**
 * The group editor (spec 002 §2 "Group editor"): Settings (name) and Permissions (a checkbox per
 * named permission). Members have the group's permissions at once. Only superusers save.
 */
export const GroupEditor = observer(function GroupEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const t = useT('admin');
  const isNew = address.split('?')[0] === GROUP_PATH;
  const labels = usePermissionLabels();
  const known = labels && Object.keys(labels);
  const [loaded, setLoaded] = useState<Draft | undefined>(isNew ? { name: '', group_permissions: [] } : undefined);
  const [draft, setDraft] = useState<Draft | undefined>(loaded);
  const [tab, setTab] = useState<TabId>('settings');
  const { error, setError, saving, run } = useEditorSave(onClose);

  useEffect(() => {
    if (isNew) return;
    api.get<GroupRecord>(address).then(
      (g) => {
        const d = { name: g.name, group_permissions: g.group_permissions ?? [] };
        setLoaded(d);
        setDraft(d);
      },
      (e: Error) => setError(e.message),
    );
  }, [api, address, isNew]);

  const save = async () => {
    if (!draft || !loaded) return;
    const changes = isNew ? bodyOf(draft) : changedFields(bodyOf(loaded), bodyOf(draft));
    if (!Object.keys(changes).length) return onClose(false);
    await run(
      async () => {
        if (isNew) await api.post(GROUP_PATH, changes);
        else await api.patch(address, changes);
        return true;
      },
      (failure: Error & { field?: string }) => setTab(failure.field === 'group_permissions' ? 'permissions' : 'settings'),
    );
  };
  const readOnly = !config.isSuperuser;
  const toggle = (p: string, on: boolean) =>
    setDraft(
      (d) => d && { ...d, group_permissions: on ? [...d.group_permissions, p] : d.group_permissions.filter((x) => x !== p) },
    );
  return (
    <EditorDialog
      icon="people"
      width={560}
      title={isNew ? t('group.new') : t('group.edit_title', { name: loaded?.name ?? '' })}
      onClose={() => onClose(false)}
      loading={!draft || !known}
      readOnly={readOnly}
      readOnlyNotice={t('superusers_only')}
      error={error}
      errorTestId="group-editor-error"
      saving={saving}
      canSave={!!draft?.name.trim()}
      saveTestId="group-save"
      onSave={() => void save()}
    >
      {draft && known && (
        <Tabs id="group-editor-tabs" renderActiveTabPanelOnly selectedTabId={tab} onChange={setTab}>
          <Tab
            id="settings"
            title={t('group.settings')}
            panel={
              <FormGroup label={t('group.name')} labelFor="group-name">
                <InputGroup
                  id="group-name"
                  value={draft.name}
                  readOnly={readOnly}
                  onValueChange={(name) => setDraft({ ...draft, name })}
                />
              </FormGroup>
            }
          />
          <Tab
            id="permissions"
            title={t('group.permissions')}
            panel={
              <div data-testid="group-permissions">
                <p className="wb-muted">{t('group.permissions_help')}</p>
                {known.map((p) => (
                  <Checkbox
                    key={p}
                    checked={draft.group_permissions.includes(p)}
                    disabled={readOnly}
                    data-testid={`group-permission-${p}`}
                    labelElement={<PermissionLabel name={p} label={labels?.[p]} />}
                    onChange={(e) => toggle(p, e.currentTarget.checked)}
                  />
                ))}
              </div>
            }
          />
        </Tabs>
      )}
    </EditorDialog>
  );
});
