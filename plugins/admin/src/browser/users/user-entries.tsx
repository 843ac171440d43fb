import type { ReactNode } from '@werkbank/sdk/react';
import { MenuItem, Tag } from '@werkbank/sdk/ui';
import { ActionMenu, useT, type ListColumn } from '@werkbank/sdk/browser';

/** A user as the list shows it (the server's user resource). */
export interface ListedUser {
  id: number;
  resource_uri: string;
  username: string;
  display_name: string;
  email?: string;
  is_active: boolean;
  is_staff: boolean;
  is_superuser: boolean;
  last_login: string | null;
}

export interface UserEntryActions {
  edit(user: ListedUser): void;
  remove(user: ListedUser): void;
  /** Absent where the caller may not act as this user (a superuser, oneself). */
  impersonate?(user: ListedUser): void;
}

type T = (key: string, options?: Record<string, unknown>) => unknown;

/** The status tags of a user: active or inactive, staff, superuser. */
export function UserStatusTags({ user }: { user: ListedUser }) {
  const t = useT('admin');
  return (
    <span className="wb-tag-row">
      <Tag minimal intent={user.is_active ? 'success' : 'none'}>
        {t(user.is_active ? 'users.active' : 'users.inactive')}
      </Tag>{' '}
      {user.is_staff && (
        <Tag minimal intent="primary">
          {t('users.staff')}
        </Tag>
      )}{' '}
      {user.is_superuser && (
        <Tag minimal intent="warning">
          {t('users.superuser')}
        </Tag>
      )}
    </span>
  );
}

/** The menu of a user card or row: Edit and Delete. */
export function UserMenu({ user, actions }: { user: ListedUser; actions: UserEntryActions }) {
  const t = useT('admin');
  return (
    <ActionMenu label={String(t('users.menu'))} testId={`user-menu-${user.id}`}>
      <MenuItem icon="edit" text={t('core:common.edit')} data-testid="user-edit" onClick={() => actions.edit(user)} />
      {actions.impersonate && !user.is_superuser && (
        <MenuItem
          icon="people"
          text={t('users.impersonate')}
          data-testid="user-impersonate"
          onClick={() => actions.impersonate!(user)}
        />
      )}
      <MenuItem
        icon="trash"
        intent="danger"
        text={t('core:common.delete')}
        data-testid="user-delete"
        onClick={() => actions.remove(user)}
      />
    </ActionMenu>
  );
}

/** The user table's columns: name, username, email, status, last login, menu. */
export function userColumns(
  t: T,
  formatDate: (iso: string) => string,
  menu: (u: ListedUser) => ReactNode,
): ListColumn<ListedUser>[] {
  return [
    { id: 'name', name: String(t('users.name')), fill: true, width: 160, render: (u) => u.display_name },
    { id: 'username', name: String(t('users.username')), width: 150, render: (u) => u.username },
    { id: 'email', name: String(t('users.email')), width: 200, render: (u) => u.email ?? '' },
    { id: 'status', name: String(t('users.status')), width: 220, render: (u) => <UserStatusTags user={u} /> },
    {
      id: 'last_login',
      name: String(t('users.last_login')),
      width: 160,
      render: (u) => (u.last_login ? formatDate(u.last_login) : String(t('users.never'))),
    },
    { id: 'menu', name: '', width: 50, render: menu },
  ];
}

/** The body of a user card: name and menu, username and email, status tags. */
export function UserCard({ user, menu }: { user: ListedUser; menu: ReactNode }) {
  return (
    <>
      <div className="wb-object-card-head">
        <span className="wb-object-card-title">{user.display_name}</span>
        {menu}
      </div>
      <div className="wb-muted">
        {user.username}
        {user.email ? ` · ${user.email}` : ''}
      </div>
      <UserStatusTags user={user} />
    </>
  );
}
