import 'cesium/Build/Cesium/Widgets/CesiumWidget/CesiumWidget.css';
import { useMemo, useState, type ReactElement } from 'react';
import { NonIdealState } from '@blueprintjs/core';
import { SceneMode } from 'cesium';
import { CesiumWidget } from 'resium';
import { ConfigStore, NavigationStore, useService, useT } from '@werkbank/kernel/browser';
import { hasCoordinates, isBbox, tileUrlTemplate } from '../../common/map-geometry';
import { baseLayer, configureCesium } from './cesium-setup';
import { globeMsaaSamples } from './renderer';
import { MapContent } from './map-content';
import type { MapMode, MapViewProps } from './map-types';
import { ModeSwitch } from './mode-switch';

const SCENE_MODES: Record<MapMode, SceneMode> = {
  '2d': SceneMode.SCENE2D,
  '3d': SceneMode.SCENE3D,
  columbus: SceneMode.COLUMBUS_VIEW,
};

configureCesium();

/**
 * The Cesium part of `MapView`, loaded on demand. A bare CesiumWidget (not the Viewer): the
 * Viewer's knockout widgets compile their bindings with `new Function`, which the CSP forbids.
 * resium destroys the widget when this unmounts (MapContent then drops its WebGL context); a mode
 * change (the ModeSwitch, unless the caller fixes `mode`) remounts it.
 */
export default function CesiumMap(props: MapViewProps): ReactElement {
  const t = useT();
  const tileTemplate = tileUrlTemplate(useService(ConfigStore).config.base_map_tile_url);
  // The chosen mode is kept per screen (navigation state; `_presentation` keys survive a reload).
  const nav = useService(NavigationStore);
  const modeKey = `${props.modeKey ?? 'map'}_map_presentation`;
  const [chosen, setChosen] = useState<MapMode>(() => {
    const kept = nav.get<string>(modeKey, '2d');
    return kept in SCENE_MODES ? (kept as MapMode) : '2d';
  });
  const mode = props.mode ?? chosen;
  const choose = (m: MapMode) => {
    nav.set(modeKey, m);
    setChosen(m);
  };
  const layer = useMemo(() => baseLayer(tileTemplate), [tileTemplate, mode]);
  const empty =
    props.features && !props.features.some((f) => hasCoordinates(f.geometry)) && !isBbox(props.bbox) && !props.imagery?.length;
  return (
    <>
      <CesiumWidget
        key={mode}
        full
        baseLayer={layer}
        sceneMode={SCENE_MODES[mode]}
        skyBox={mode === '2d' ? false : undefined}
        skyAtmosphere={mode === '2d' ? false : undefined}
        requestRenderMode
        maximumRenderTimeChange={Infinity}
        msaaSamples={globeMsaaSamples()}
      >
        <MapContent {...props} />
      </CesiumWidget>
      {!props.mode && <ModeSwitch mode={mode} onChange={choose} />}
      {empty && (
        <div className="wb-map-empty" role="status">
          <NonIdealState icon="map" title={t('map.no_coordinates')} />
        </div>
      )}
    </>
  );
}
