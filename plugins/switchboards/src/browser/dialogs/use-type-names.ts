import { useEffect, useState } from '@werkbank/sdk/react';
import { ApiClient, useService, type ListResponse } from '@werkbank/sdk/browser';

/** The type list's address (plugin types). */
export const TYPE_PATH = '/api/v1/type/';

/** The names of the datum types the server knows (GET /api/v1/type/), sorted; empty until loaded or when the load fails. */
export function useTypeNames(): string[] {
  const api = useService(ApiClient);
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    api.get<ListResponse<{ name: string }>>(TYPE_PATH, { query: { limit: 1000 } }).then(
      (r) => live && setNames(r.objects.map((t) => t.name).sort()),
      () => live && setNames([]),
    );
    return () => void (live = false);
  }, [api]);
  return names;
}
