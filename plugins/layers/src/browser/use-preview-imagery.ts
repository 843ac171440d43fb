import { useEffect, useState } from '@werkbank/sdk/react';
import { ApiClient, useService, type ListResponse } from '@werkbank/sdk/browser';
import { wmsImageryOf, wmtsImageryOf, type MapImagery } from '@werkbank/sdk';
import type { Layer } from '../common/layers-api';

/** At most this many datums per pile are previewed. */
const PREVIEW_LIMIT = 100;

/** The map kind of a pile's type address (`/api/v1/type/wms/`), for the piles an external map stacks. */
const kindOf = (contentType: string): 'wms' | 'wmts' | undefined => {
  const name = /\/type\/([^/]+)\/?$/.exec(contentType)?.[1];
  return name === 'wms' || name === 'wmts' ? name : undefined;
};

/**
 * The imagery of an external_map or mapproxy layer (decision 0067): each WMS or WMTS pile's datums
 * (the first PREVIEW_LIMIT) whose address can be read, bottom pile first so the top pile draws
 * on top. Empty for other layers.
 */
export function usePreviewImagery(layer: Layer): MapImagery[] {
  const api = useService(ApiClient);
  const [imagery, setImagery] = useState<MapImagery[]>([]);
  const piles = layer.layerpiles.filter((p) => typeof p.id === 'number' && kindOf(p.content_type ?? ''));
  const key = piles.map((p) => p.id).join(',');
  useEffect(() => {
    let live = true;
    void Promise.all(
      [...piles].reverse().map((p) =>
        api
          .get<ListResponse<Record<string, unknown>>>(`/api/v1/datum/by-pile/${p.id}/`, { query: { limit: PREVIEW_LIMIT } })
          .then(
            (r) => r.objects.flatMap((d) => (kindOf(p.content_type) === 'wms' ? wmsImageryOf(d) : wmtsImageryOf(d)) ?? []),
            () => [],
          ),
      ),
    ).then((lists) => live && setImagery(lists.flat()));
    return () => {
      live = false;
    };
  }, [api, key]);
  return imagery;
}
