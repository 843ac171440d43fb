import { useEffect, useState } from '@werkbank/sdk/react';
import { ApiClient, useService, type ListResponse } from '@werkbank/sdk/browser';
import { GROUP_PATH, PERMISSIONS_PATH, REALMS_PATH } from '../common/admin-paths';
import type { GroupRecord } from '../common/group-rules';

/** A list the editors need whole (permissions, groups, realms); undefined while it loads. */
function useWholeList<T>(path: string, query?: Record<string, string | number>): T[] | undefined {
  const api = useService(ApiClient);
  const [items, setItems] = useState<T[]>();
  useEffect(() => {
    api.get<ListResponse<T>>(path, query && { query }).then(
      (r) => setItems(r.objects),
      () => setItems([]),
    );
  }, [api, path]);
  return items;
}

/**
 * The named permissions that may be granted (spec 002 §6), sorted by name, with the server's labels
 * in the reader's language (decision 0041): `Object.keys` of the reply are the names.
 */
export function usePermissionLabels(): Record<string, string> | undefined {
  const list = useWholeList<{ name: string; label?: string }>(PERMISSIONS_PATH);
  return list && Object.fromEntries(list.map((p) => [p.name, p.label ?? p.name]));
}

/** Every group with its permissions (a user's Groups tab and the group-granted checkboxes). */
export function useGroupRecords(): GroupRecord[] | undefined {
  return useWholeList<GroupRecord>(GROUP_PATH, { limit: 1000, order_by: 'name' });
}

/** The realms an API key may be limited to ('*' is every realm). */
export function useRealms(): string[] | undefined {
  return useWholeList<{ name: string }>(REALMS_PATH)?.map((r) => r.name);
}
