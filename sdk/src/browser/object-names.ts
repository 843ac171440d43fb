import { useEffect, useState } from 'react';
import { ApiClient, useService } from '@werkbank/kernel/browser';

/** An object's address in the resource layer (`/api/v1/{kind}/{id}/`). */
const ADDRESS = /^\/api\/v\d\/[a-z_]+\/\d{1,9}\/$/;

/**
 * The names of the objects at `addresses` (each read once; an object that cannot be read is named
 * by its address), for lists that hold addresses — a view's layer tree, a portal's entries.
 * Anything that is not an object address is left out.
 */
export function useObjectNames(addresses: readonly (string | null | undefined)[]): Record<string, string> {
  const api = useService(ApiClient);
  const [names, setNames] = useState<Record<string, string>>({});
  const wanted = [...new Set(addresses)].filter((a): a is string => !!a && ADDRESS.test(a) && !(a in names));
  const key = wanted.join(',');
  useEffect(() => {
    for (const address of wanted)
      api.get<{ name: string }>(address).then(
        (o) => setNames((n) => ({ ...n, [address]: o.name })),
        () => setNames((n) => ({ ...n, [address]: address })),
      );
  }, [api, key]);
  return names;
}
