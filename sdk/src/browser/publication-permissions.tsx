import { FormGroup, Switch } from '@blueprintjs/core';
import { ConfigStore, useService, useT } from '@werkbank/kernel/browser';
import type { PermissionEntry } from '@werkbank/kernel/browser';
import { PermissionsEditor } from './permissions-editor';

/**
 * The Permissions tab of views and portals (spec 002 §2, §4): the publication status — PUBLIC or
 * INTERNAL ONLY, which only holders of publish_view may switch — the owner and the rights of users
 * and groups (only the owner or a superuser grants them).
 */
export function PublicationPermissions(props: {
  owner?: string | null;
  isPublic: boolean;
  permissions: PermissionEntry[];
  readOnly: boolean;
  mayGrant: boolean;
  onPublic(on: boolean): void;
  onPermissions(p: PermissionEntry[]): void;
  testId: string;
}) {
  const config = useService(ConfigStore);
  const t = useT();
  const mayPublish = config.hasPermission('publish_view');
  return (
    <div data-testid={`${props.testId}-permissions`}>
      <FormGroup label={t('core:publication.status')} helperText={mayPublish ? undefined : t('core:publication.needs_publish')}>
        <Switch
          label={String(t(props.isPublic ? 'core:publication.public' : 'core:publication.internal'))}
          disabled={props.readOnly || !mayPublish}
          checked={props.isPublic}
          data-testid={`${props.testId}-public`}
          onChange={(e) => props.onPublic(e.currentTarget.checked)}
        />
      </FormGroup>
      <PermissionsEditor
        owner={props.owner}
        readOnly={props.readOnly || !props.mayGrant}
        value={props.permissions}
        onChange={props.onPermissions}
      />
    </div>
  );
}
