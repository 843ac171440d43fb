import { useMemo } from '@werkbank/sdk/react';
import { MapView, observer, useT, type ResourceListStore } from '@werkbank/sdk/browser';
import { wmsImageryOf, wmtsImageryOf, type MapFeature, type MapImagery } from '@werkbank/sdk';
import type { Datum } from '../common/magazine-types';

/** The feature of a datum of a located type (`{feature: {type, geometry, properties}}`), if it has one. */
export function datumFeature(datum: Datum): MapFeature | undefined {
  const f = datum.feature as MapFeature | undefined;
  if (!f || typeof f !== 'object' || !('geometry' in f)) return undefined;
  return { type: 'Feature', id: datum.id, geometry: f.geometry, properties: f.properties ?? {} };
}

/** What the map shows of a depot's datums: features, or the imagery of WMS and WMTS datums. */
export type DepotMapKind = 'feature' | 'wms' | 'wmts';

/** The imagery of a WMS or WMTS datum, if its address can be read (decision 0067). */
export function datumImagery(datum: Datum, kind: 'wms' | 'wmts'): MapImagery | undefined {
  const fields = datum as Record<string, unknown>;
  return kind === 'wms' ? wmsImageryOf(fields) : wmtsImageryOf(fields);
}

/**
 * The datums the list has loaded, on the SDK's map (read-only): shown beside cards or table for
 * located types (feature and the types derived from it) and for WMS and WMTS depots (their maps as
 * imagery, through the server's relay when remote).
 */
export const DepotMap = observer(function DepotMap({
  list,
  kind = 'feature',
}: {
  list: ResourceListStore<Datum>;
  kind?: DepotMapKind;
}) {
  const t = useT('magazine');
  const items = list.items;
  const features = useMemo(
    () => (kind === 'feature' ? items.flatMap((d) => datumFeature(d) ?? []) : undefined),
    [items, items.length, kind],
  );
  const imagery = useMemo(
    () => (kind === 'feature' ? undefined : items.flatMap((d) => datumImagery(d, kind) ?? [])),
    [items, items.length, kind],
  );
  return (
    <div className="wb-depot-map" data-testid="depot-map">
      <MapView features={features} imagery={imagery} modeKey="depot" label={String(t('datum.map'))} height="60vh" />
    </div>
  );
});
