import { useEffect, useState } from 'react';
import { HTMLSelect } from '@blueprintjs/core';
import { ApiClient, useService, type ListResponse } from '@werkbank/kernel/browser';

export interface UserOption {
  resource_uri: string;
  display_name: string;
}

/** Every user (address and display name), for filters and names in lists. */
export function useUsers(): UserOption[] {
  const api = useService(ApiClient);
  const [users, setUsers] = useState<UserOption[]>([]);
  useEffect(() => {
    api.get<ListResponse<UserOption>>('/api/v1/user/', { query: { limit: 1000 } }).then(
      (r) => setUsers(r.objects),
      () => setUsers([]),
    );
  }, [api]);
  return users;
}

/** A user filter: '' for all users (labelled `allLabel`), otherwise a user's address. */
export function UserSelect(props: {
  users: UserOption[];
  value: string;
  onChange(address: string): void;
  allLabel: string;
  testId?: string;
}) {
  return (
    <HTMLSelect
      aria-label={props.allLabel}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      data-testid={props.testId}
    >
      <option value="">{props.allLabel}</option>
      {props.users.map((u) => (
        <option key={u.resource_uri} value={u.resource_uri}>
          {u.display_name}
        </option>
      ))}
    </HTMLSelect>
  );
}
