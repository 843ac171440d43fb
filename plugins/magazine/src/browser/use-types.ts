import { useEffect, useState } from '@werkbank/sdk/react';
import { ApiClient, TypeHierarchy, useService, type ListResponse } from '@werkbank/sdk/browser';
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

/**
 * The template of a datum type, which decides what its editor edits (datumEditorValue): the
 * browser's type registry's when it knows the type, else the server's (GET /api/v1/type/{name}/);
 * undefined while that loads, `{}` when it cannot be had.
 */
export function useTypeTemplate(typeName: string): Record<string, unknown> | undefined {
  const api = useService(ApiClient);
  const types = useService(TypeHierarchy);
  const local = types.type(typeName) ? types.templateOf(typeName) : undefined;
  const [remote, setRemote] = useState<{ name: string; template: Record<string, unknown> }>();
  useEffect(() => {
    if (local || !typeName) return;
    let live = true;
    api.get<{ template?: Record<string, unknown> }>(`${TYPE_PATH}${typeName}/`).then(
      (t) => live && setRemote({ name: typeName, template: t.template ?? {} }),
      () => live && setRemote({ name: typeName, template: {} }),
    );
    return () => void (live = false);
  }, [api, typeName, !!local]);
  return local ?? (remote?.name === typeName ? remote.template : undefined);
}
