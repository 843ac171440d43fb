import { useEffect, useState } from 'react';
import { Button, Checkbox, HTMLSelect, HTMLTable, Tag } from '@blueprintjs/core';
import { ApiClient, useService, useT, type ListResponse, type PermissionEntry } from '@werkbank/kernel/browser';
import { useUsers } from './user-select';

export interface GroupOption {
  resource_uri: string;
  name: string;
}

/** Every group (address and name) for permission editing; empty when the caller may not list them. */
export function useGroups(): GroupOption[] {
  const api = useService(ApiClient);
  const [groups, setGroups] = useState<GroupOption[]>([]);
  useEffect(() => {
    api.get<ListResponse<GroupOption>>('/api/v1/group/', { query: { limit: 1000 } }).then(
      (r) => setGroups(r.objects),
      () => setGroups([]),
    );
  }, [api]);
  return groups;
}

/** Entries that name a user or a group; the editor's new rows have neither until one is chosen. */
export function completePermissions(entries: PermissionEntry[]): PermissionEntry[] {
  return entries.filter((e) => (e.user || e.group) && e.perms.length);
}

export interface PermissionsEditorProps {
  /** The owner's address: shown first with every right, locked (spec 001 §5.1). */
  owner?: string | null;
  value: PermissionEntry[];
  onChange(value: PermissionEntry[]): void;
  readOnly?: boolean;
  /** The rights a grant may hold, in column order (docs/api.md "Permissions"). */
  rights?: string[];
  /**
   * Translated headings per right where a kind names them itself (spec 002 §6: a workflow's read,
   * execute and write are Show, Run and Edit); the others read Read, Run and Write.
   */
  labels?: Partial<Record<string, string>>;
}

const principalOf = (e: PermissionEntry) => (e.user ? `user:${e.user}` : e.group ? `group:${e.group}` : '');

/**
 * Object permissions per user or group (spec 001 §5.1, spec 002 §6): a row per grant with a
 * checkbox per right. Choosing a user clears the group and vice versa; write implies read.
 */
export function PermissionsEditor({
  owner,
  value,
  onChange,
  readOnly,
  rights = ['read', 'write'],
  labels,
}: PermissionsEditorProps) {
  const t = useT();
  const label = (right: string) => labels?.[right] ?? String(t(`permissions.${right}`));
  const users = useUsers();
  const groups = useGroups();
  const userName = (uri: string) => users.find((u) => u.resource_uri === uri)?.display_name ?? uri;
  const set = (i: number, entry: PermissionEntry) => onChange(value.map((e, j) => (j === i ? entry : e)));
  const toggle = (i: number, right: string, on: boolean) => {
    const perms = new Set(value[i].perms);
    if (on) perms.add(right);
    else perms.delete(right);
    if (on && right !== 'read') perms.add('read');
    if (!on && right === 'read') rights.forEach((r) => perms.delete(r));
    set(i, { ...value[i], perms: rights.filter((r) => perms.has(r)) });
  };
  const choose = (i: number, principal: string) => {
    const [kind, ...rest] = principal.split(':');
    const address = rest.join(':');
    set(i, kind === 'group' ? { group: address, perms: value[i].perms } : { user: address, perms: value[i].perms });
  };
  return (
    <div data-testid="permissions-editor">
      <HTMLTable compact className="wb-permissions">
        <thead>
          <tr>
            <th>{t('permissions.principal')}</th>
            {rights.map((r) => (
              <th key={r}>{label(r)}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {owner && (
            <tr data-testid="permissions-owner">
              <td>
                {userName(owner)} <Tag minimal>{t('permissions.owner')}</Tag>
              </td>
              {rights.map((r) => (
                <td key={r}>
                  <Checkbox checked disabled aria-label={label(r)} />
                </td>
              ))}
              <td />
            </tr>
          )}
          {value.map((entry, i) => (
            <tr key={i}>
              <td>
                <HTMLSelect
                  value={principalOf(entry)}
                  disabled={readOnly}
                  aria-label={String(t('permissions.principal'))}
                  onChange={(e) => choose(i, e.target.value)}
                >
                  <option value="">{t('permissions.choose')}</option>
                  <optgroup label={String(t('permissions.users'))}>
                    {users.map((u) => (
                      <option key={u.resource_uri} value={`user:${u.resource_uri}`}>
                        {u.display_name}
                      </option>
                    ))}
                  </optgroup>
                  <optgroup label={String(t('permissions.groups'))}>
                    {groups.map((g) => (
                      <option key={g.resource_uri} value={`group:${g.resource_uri}`}>
                        {g.name}
                      </option>
                    ))}
                  </optgroup>
                </HTMLSelect>
              </td>
              {rights.map((r) => (
                <td key={r}>
                  <Checkbox
                    checked={entry.perms.includes(r)}
                    disabled={readOnly}
                    aria-label={label(r)}
                    onChange={(e) => toggle(i, r, e.currentTarget.checked)}
                  />
                </td>
              ))}
              <td>
                {!readOnly && (
                  <Button
                    size="small"
                    variant="minimal"
                    icon="cross"
                    aria-label={String(t('permissions.remove'))}
                    onClick={() => onChange(value.filter((_, j) => j !== i))}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {!readOnly && (
        <Button
          icon="add"
          variant="minimal"
          text={t('permissions.add')}
          data-testid="permissions-add"
          onClick={() => onChange([...value, { user: '', perms: ['read'] }])}
        />
      )}
    </div>
  );
}
