import { useMemo } from '@werkbank/sdk/react';
import { MapView, observer, useT, type ResourceListStore } from '@werkbank/sdk/browser';
import type { MapFeature } from '@werkbank/sdk';
import type { Datum } from '../common/magazine-types';

/** The feature of a datum of a located type (`{feature: {type, geometry, properties}}`), if it has one. */
export function datumFeature(datum: Datum): MapFeature | undefined {
  const f = datum.feature as MapFeature | undefined;
  if (!f || typeof f !== 'object' || !('geometry' in f)) return undefined;
  return { type: 'Feature', id: datum.id, geometry: f.geometry, properties: f.properties ?? {} };
}

/**
 * The datums the list has loaded, on the SDK's map (read-only): shown beside cards or table for
 * located types (feature and the types derived from it).
 */
export const DepotMap = observer(function DepotMap({ list }: { list: ResourceListStore<Datum> }) {
  const t = useT('magazine');
  const items = list.items;
  const features = useMemo(() => items.flatMap((d) => datumFeature(d) ?? []), [items, items.length]);
  return (
    <div className="wb-depot-map" data-testid="depot-map">
      <MapView features={features} label={String(t('datum.map'))} height="60vh" />
    </div>
  );
});
