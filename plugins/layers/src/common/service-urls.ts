import { layerServiceName } from './layer-slug';

/** The services a layer's addresses are shown for (spec 001 §2.2), in the Services tab's order. */
export const SERVICE_KINDS = ['geojson', 'ogcapi', 'wfs', 'wms', 'wmts_kvp', 'wmts_rest'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

/**
 * A layer's service addresses from the configured templates (`{name}` → short name, or the id when
 * the short name is not valid; spec 001 §5.1), absolute against `origin` when a template is a path.
 * Kinds without a template are left out.
 */
export function serviceUrls(
  layer: { id: number; slug?: string | null },
  templates: Record<string, string> | undefined,
  origin: string,
): Array<{ kind: ServiceKind; url: string }> {
  const name = encodeURIComponent(layerServiceName(layer));
  return SERVICE_KINDS.flatMap((kind) => {
    const template = templates?.[kind];
    if (!template) return [];
    const url = template.replaceAll('{name}', name).replaceAll('{id}', String(layer.id));
    return [{ kind, url: url.startsWith('/') ? `${origin}${url}` : url }];
  });
}
