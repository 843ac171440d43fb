import { useEffect, useState } from '@werkbank/sdk/react';
import { Tab, Tabs, type TabId } from '@werkbank/sdk/ui';
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
import { USER_PATH } from '../../common/admin-paths';
import { groupGrantedPermissions } from '../../common/group-rules';
import {
  changedFields,
  userBodyOf,
  userDraftOf,
  usernameProblem,
  type UserDraft,
  type UserRecord,
} from '../../common/user-rules';
import { useGroupRecords, useNamedPermissions } from '../use-admin-data';
import { UserPersonalTab } from './user-personal-tab';
import { UserPermissionsTab } from './user-permissions-tab';
import { UserGroupsTab } from './user-groups-tab';
import { UserApiKeysTab } from './user-apikeys-tab';
import { UserSessionsTab } from './user-sessions-tab';
import { UserApiStatsTab } from './user-api-stats-tab';

type User = UserRecord & { resource_uri: string; display_name: string };

/** The tab that shows a refused field. */
const tabOfField = (field?: string): TabId | undefined =>
  field === 'groups' ? 'groups' : field === 'user_permissions' ? 'permissions' : field ? 'personal' : undefined;

/**
 * The user editor (spec 002 §2 "User editor"), opened for /api/v1/user/ (new) or a user's address:
 * Personal data, Permissions, Groups; for a superuser viewing an existing user also Sessions (while
 * the sessions component is on), API key and API Statistics (while api_stats is on). Personal data, permissions and groups are saved
 * together, only what changed; API keys and sessions change at once (spec 002 §6).
 */
export const UserEditor = observer(function UserEditor({ address, onClose }: EditorProps) {
  const api = useService(ApiClient);
  const config = useService(ConfigStore);
  const t = useT('admin');
  const isNew = address.split('?')[0] === USER_PATH;
  const known = useNamedPermissions();
  const groups = useGroupRecords();
  // null for a new user; undefined while an existing one loads.
  const [loaded, setLoaded] = useState<User | null | undefined>(isNew ? null : undefined);
  const [draft, setDraft] = useState<UserDraft>();
  const [tab, setTab] = useState<TabId>('personal');
  const { error, setError, saving, run } = useEditorSave(onClose);

  useEffect(() => {
    if (isNew) return;
    api.get<User>(address).then(setLoaded, (e: Error) => setError(e.message));
  }, [api, address, isNew]);
  useEffect(() => {
    if (known && loaded !== undefined && !draft) setDraft(userDraftOf(loaded ?? undefined, known));
  }, [known, loaded, draft]);

  const patch = (p: Partial<UserDraft>) => setDraft((d) => d && { ...d, ...p });
  const save = async () => {
    if (!draft || !known) return;
    const next = userBodyOf(draft);
    const changes = isNew ? next : changedFields(userBodyOf(userDraftOf(loaded!, known)), next);
    if (!isNew && !Object.keys(changes).length) return onClose(false);
    await run(
      async () => {
        if (isNew) await api.post(USER_PATH, next);
        else await api.patch(address, changes);
        return true;
      },
      (failure: Error & { field?: string }) => setTab((current) => tabOfField(failure.field) ?? current),
    );
  };
  const admin = config.isSuperuser && !isNew && !!loaded;
  const granted = groupGrantedPermissions(groups ?? [], draft?.groups ?? []);
  return (
    <EditorDialog
      icon="person"
      width={720}
      title={isNew ? t('user.new') : t('user.edit_title', { name: loaded?.display_name ?? '' })}
      onClose={() => onClose(false)}
      loading={!draft || !groups}
      readOnly={false}
      readOnlyNotice=""
      error={error}
      errorTestId="user-editor-error"
      saving={saving}
      canSave={!!draft && !usernameProblem(draft.username)}
      saveTestId="user-save"
      onSave={() => void save()}
    >
      {draft && groups && known && (
        <Tabs id="user-editor-tabs" renderActiveTabPanelOnly selectedTabId={tab} onChange={setTab}>
          <Tab
            id="personal"
            title={t('user.personal')}
            panel={<UserPersonalTab value={draft} isNew={isNew} onChange={patch} />}
          />
          <Tab
            id="permissions"
            title={t('user.permissions')}
            panel={<UserPermissionsTab known={known} value={draft} groupGranted={granted} onChange={patch} />}
          />
          <Tab
            id="groups"
            title={t('user.groups')}
            panel={<UserGroupsTab groups={groups} value={draft.groups} onChange={(g) => patch({ groups: g })} />}
          />
          {admin && config.isEnabled('sessions') && (
            <Tab id="sessions" title={t('user.sessions')} panel={<UserSessionsTab user={loaded.resource_uri} />} />
          )}
          {admin && <Tab id="apikey" title={t('user.apikey')} panel={<UserApiKeysTab user={loaded.resource_uri} />} />}
          {admin && config.isEnabled('api_stats') && (
            <Tab id="apistats" title={t('user.apistats')} panel={<UserApiStatsTab user={loaded.resource_uri} />} />
          )}
        </Tabs>
      )}
    </EditorDialog>
  );
});
