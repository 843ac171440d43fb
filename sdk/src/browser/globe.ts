/**
 * @werkbank/sdk/globe: CesiumJS through resium for pages outside the workbench — the public viewer
 * (decision 0088). No kernel, no Blueprint: a page that imports only this and `react` stays light.
 * Cesium's engine comes without its widgets (the CSP forbids their `eval`), its files from our own
 * origin, ion switched off.
 */
import 'cesium/Build/Cesium/Widgets/CesiumWidget/CesiumWidget.css';

export { createRoot } from 'react-dom/client';
export { useState, useEffect, useMemo, useRef, useCallback, Fragment, StrictMode } from 'react';
export type { ReactElement, ReactNode, KeyboardEvent as ReactKeyboardEvent } from 'react';
export { CesiumWidget, useCesium } from 'resium';
export {
  BoundingSphere,
  Cartesian2,
  Cartesian3,
  Cartographic,
  Color,
  Ellipsoid,
  EllipsoidGeodesic,
  GeoJsonDataSource,
  HeadingPitchRange,
  ImageryLayer,
  Math as CesiumMath,
  PointGraphics,
  PolygonHierarchy,
  Rectangle,
  SceneMode,
  ScreenSpaceEventHandler,
  ScreenSpaceEventType,
  type CesiumWidget as CesiumWidgetInstance,
  type Entity,
  type ImageryProvider,
} from 'cesium';
export { baseLayer, configureCesium, CESIUM_BASE_PATH } from './map/cesium-setup';
export { globeMsaaSamples } from './map/renderer';
export { imageryProvider } from './map/imagery-layers';
export { tileUrlTemplate } from '../common/map-geometry';
export type { MapImagery, WmsImagery } from '../common/map-imagery';
