import { useEffect, useState } from '@werkbank/sdk/react';
import { ApiClient, useService } from '@werkbank/sdk/browser';
import { LAYER_ATTRIBUTES_PATH, type LayerAttribute } from '../common/layers-api';

/** The layer's attributes (`/api/v2/backend/layer-attributes?layer=`); empty for a new layer or on failure. */
export function useLayerAttributes(layerId: number | undefined): { attributes: LayerAttribute[]; error?: string } {
  const api = useService(ApiClient);
  const [attributes, setAttributes] = useState<LayerAttribute[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!layerId) return;
    let live = true;
    api.get<{ objects: LayerAttribute[] }>(LAYER_ATTRIBUTES_PATH, { query: { layer: layerId } }).then(
      (r) => live && setAttributes(r.objects),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, layerId]);
  return { attributes, error };
}
