import { Callout, Checkbox, Tag } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { permissionBox, togglePermission, type UserDraft } from '../../common/user-rules';
import { PermissionLabel } from '../permission-label';

/**
 * The Permissions tab (spec 002 §5): a checkbox per named permission. A superuser shows all
 * checked; group-granted permissions show checked; for a staff user who is not superuser only the
 * group-granted ones can be changed. Ticking records the user's own grant.
 */
export function UserPermissionsTab(props: {
  known: string[];
  /** The server's labels by name (permissions plugins add). */
  labels?: Record<string, string>;
  value: UserDraft;
  groupGranted: ReadonlySet<string>;
  onChange(p: Partial<UserDraft>): void;
}) {
  const { known, labels, value, groupGranted, onChange } = props;
  const t = useT('admin');
  return (
    <div data-testid="user-permissions">
      {value.is_superuser && (
        <Callout intent="warning" className="wb-gap">
          {t('user.permissions_superuser')}
        </Callout>
      )}
      {value.is_staff && !value.is_superuser && (
        <Callout intent="primary" className="wb-gap">
          {t('user.permissions_staff')}
        </Callout>
      )}
      {known.map((p) => {
        const box = permissionBox(p, value, groupGranted);
        return (
          <Checkbox
            key={p}
            checked={box.checked}
            disabled={box.disabled}
            data-testid={`user-permission-${p}`}
            onChange={(e) => onChange({ user_permissions: togglePermission(value.user_permissions, p, e.currentTarget.checked) })}
            labelElement={
              <span>
                <PermissionLabel name={p} label={labels?.[p]} />
                {box.fromGroup && !value.is_superuser && (
                  <>
                    {' '}
                    <Tag minimal round>
                      {t('user.from_group')}
                    </Tag>
                  </>
                )}
              </span>
            }
          />
        );
      })}
    </div>
  );
}
