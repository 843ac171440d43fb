import 'cesium/Build/Cesium/Widgets/CesiumWidget/CesiumWidget.css';
import { useMemo, type ReactElement } from 'react';
import { SceneMode } from 'cesium';
import { CesiumWidget } from 'resium';
import { baseLayer, configureCesium } from './cesium-setup';
import { MapContent } from './map-content';
import type { MapViewProps } from './map-types';

configureCesium();

/**
 * The Cesium part of `MapView`, loaded on demand. A bare CesiumWidget (not the Viewer): the
 * Viewer's knockout widgets compile their bindings with `new Function`, which the CSP forbids.
 * resium destroys the widget (and its WebGL context) when this unmounts; a mode change remounts it.
 */
export default function CesiumMap(props: MapViewProps & { tileTemplate?: string }): ReactElement {
  const mode = props.mode ?? '2d';
  const layer = useMemo(() => baseLayer(props.tileTemplate), [props.tileTemplate, mode]);
  return (
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
  );
}
