import 'cesium/Build/Cesium/Widgets/CesiumWidget/CesiumWidget.css';
import { useMemo, type ReactElement } from 'react';
import { NonIdealState } from '@blueprintjs/core';
import { SceneMode } from 'cesium';
import { CesiumWidget } from 'resium';
import { ConfigStore, useService, useT } from '@werkbank/kernel/browser';
import { hasCoordinates, isBbox, tileUrlTemplate } from '../../common/map-geometry';
import { baseLayer, configureCesium } from './cesium-setup';
import { MapContent } from './map-content';
import type { MapViewProps } from './map-types';

configureCesium();

/**
 * The Cesium part of `MapView`, loaded on demand. A bare CesiumWidget (not the Viewer): the
 * Viewer's knockout widgets compile their bindings with `new Function`, which the CSP forbids.
 * resium destroys the widget when this unmounts (MapContent then drops its WebGL context); a mode
 * change remounts it.
 */
export default function CesiumMap(props: MapViewProps): ReactElement {
  const t = useT();
  const tileTemplate = tileUrlTemplate(useService(ConfigStore).config.base_map_tile_url);
  const mode = props.mode ?? '2d';
  const layer = useMemo(() => baseLayer(tileTemplate), [tileTemplate, mode]);
  const empty = props.features && !props.features.some((f) => hasCoordinates(f.geometry)) && !isBbox(props.bbox);
  return (
    <>
      <CesiumWidget
        key={mode}
        full
        baseLayer={layer}
        sceneMode={mode === '3d' ? SceneMode.SCENE3D : SceneMode.SCENE2D}
        skyBox={mode === '3d' ? undefined : false}
        skyAtmosphere={mode === '3d' ? undefined : false}
        requestRenderMode
        maximumRenderTimeChange={Infinity}
      >
        <MapContent {...props} />
      </CesiumWidget>
      {empty && (
        <div className="wb-map-empty" role="status">
          <NonIdealState icon="map" title={t('map.no_coordinates')} />
        </div>
      )}
    </>
  );
}
