import { useEffect, useState } from 'react';
import { ApiClient, TypeHierarchy, useService, type DatumFields } from '@werkbank/kernel/browser';

/**
 * The template of a datum type, which decides what its editor edits (datumEditorValue): the
 * browser's type registry's when it knows the type, else the server's (GET /api/v1/type/{name}/);
 * undefined while that loads, `{}` when it cannot be had.
 */
export function useTypeTemplate(typeName: string): DatumFields | undefined {
  const api = useService(ApiClient);
  const types = useService(TypeHierarchy);
  const local = types.type(typeName) ? types.templateOf(typeName) : undefined;
  const [remote, setRemote] = useState<{ name: string; template: DatumFields }>();
  useEffect(() => {
    if (local || !typeName) return;
    let live = true;
    api.get<{ template?: DatumFields }>(`/api/v1/type/${encodeURIComponent(typeName)}/`).then(
      (t) => live && setRemote({ name: typeName, template: t.template ?? {} }),
      () => live && setRemote({ name: typeName, template: {} }),
    );
    return () => void (live = false);
  }, [api, typeName, !!local]);
  return local ?? (remote?.name === typeName ? remote.template : undefined);
}
