import { Suspense, lazy, type ReactElement } from 'react';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { ConfigStore, useService, useT } from '@werkbank/kernel/browser';
import { hasCoordinates, isBbox, tileUrlTemplate } from '../../common/map-geometry';
import type { MapViewProps } from './map-types';

/**
 * Cesium (several MB) is loaded by the first screen that shows a map, never with the workbench
 * (DESIGN §4): this import is the only way in, and the build check keeps it out of the main chunk.
 */
const CesiumMap = lazy(() => import('./cesium-map'));

/**
 * The map building block (DESIGN §4): CesiumJS through resium in 2D or 3D, base map from the
 * configured tile address or the bundled Natural Earth imagery; GeoJSON features, a bbox, and
 * bbox drawing when `onBboxChange` is given. Disposes its viewer on unmount.
 */
export function MapView(props: MapViewProps): ReactElement {
  const t = useT();
  const tileTemplate = tileUrlTemplate(useService(ConfigStore).config.base_map_tile_url);
  const height = props.height ?? 400;
  const hasFeatures = (props.features ?? []).some((f) => hasCoordinates(f.geometry));
  const hasBbox = isBbox(props.bbox);
  return (
    <section
      className={`wb-map ${props.className ?? ''}`}
      aria-label={props.label ?? t('map.label')}
      style={{ position: 'relative', height, minHeight: 120 }}
    >
      <Suspense fallback={<Spinner aria-label={t('map.loading')} />}>
        <CesiumMap {...props} tileTemplate={tileTemplate} />
      </Suspense>
      {!hasFeatures && !hasBbox && props.features && (
        <div className="wb-map-empty" role="status">
          <NonIdealState icon="map" title={t('map.no_coordinates')} />
        </div>
      )}
    </section>
  );
}
