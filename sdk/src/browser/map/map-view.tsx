import { Suspense, lazy, type ReactElement } from 'react';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { useT } from '@werkbank/kernel/browser';
import { MapErrorBoundary } from './map-error-boundary';
import type { MapViewProps } from './map-types';

/**
 * Cesium (several MB) is loaded by the first screen that shows a map, never with the workbench
 * (DESIGN §4): this import is the only way in, and scripts/check-main-chunk.mjs keeps Cesium out
 * of what the workbench loads at start. Everything else of the map lives behind it too.
 */
const CesiumMap = lazy(() => import('./cesium-map'));

/**
 * The map building block (DESIGN §4): CesiumJS through resium in 2D or 3D, base map from the
 * configured tile address or the bundled Natural Earth imagery; GeoJSON features, a bbox, and
 * bbox drawing when `onBboxChange` is given. Disposes its viewer (and WebGL context) on unmount.
 */
export function MapView(props: MapViewProps): ReactElement {
  const t = useT();
  return (
    <section
      className={`wb-map ${props.className ?? ''}`}
      aria-label={props.label ?? t('map.label')}
      style={{ position: 'relative', height: props.height ?? 400, minHeight: 120 }}
    >
      <MapErrorBoundary fallback={<NonIdealState icon="error" title={t('map.failed')} description={t('map.failed_hint')} />}>
        <Suspense fallback={<Spinner aria-label={t('map.loading')} />}>
          <CesiumMap {...props} />
        </Suspense>
      </MapErrorBoundary>
    </section>
  );
}
