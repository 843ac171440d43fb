import { useEffect, useState } from '@werkbank/sdk/react';
import { ApiClient, useService, type ListResponse } from '@werkbank/sdk/browser';
import { TYPE_PATH, type TypeInfo } from '../common/magazine-types';

/** The datum types the server knows (GET /api/v1/type/), sorted by name; empty until loaded. */
export function useTypes(): TypeInfo[] {
  const api = useService(ApiClient);
  const [types, setTypes] = useState<TypeInfo[]>([]);
  useEffect(() => {
    api.get<ListResponse<TypeInfo>>(TYPE_PATH, { query: { limit: 1000 } }).then(
      (r) => setTypes(r.objects),
      () => setTypes([]),
    );
  }, [api]);
  return types;
}
