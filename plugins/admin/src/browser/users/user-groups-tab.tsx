import { Callout, Checkbox } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { GroupRecord } from '../../common/group-rules';

/** The Groups tab: a checkbox per group; members have a group's permissions at once. */
export function UserGroupsTab({
  groups,
  value,
  onChange,
}: {
  groups: GroupRecord[];
  value: string[];
  onChange(next: string[]): void;
}) {
  const t = useT('admin');
  if (!groups.length) return <Callout>{t('user.no_groups')}</Callout>;
  return (
    <div data-testid="user-groups">
      <p className="wb-muted">{t('user.groups_help')}</p>
      {groups.map((g) => (
        <Checkbox
          key={g.resource_uri}
          label={g.name}
          checked={value.includes(g.resource_uri)}
          onChange={(e) =>
            onChange(e.currentTarget.checked ? [...value, g.resource_uri] : value.filter((v) => v !== g.resource_uri))
          }
        />
      ))}
    </div>
  );
}
