/** @werkbank/sdk: the only package a plugin imports. Shared (isomorphic) part. */
export * from '@werkbank/kernel';
export { injectable, inject, optional, postConstruct, multiInject } from 'inversify';
export { formatBytes } from './byte-size';
export { escapeHtml } from './html';
export { EPSG_25832, geodesicArea, geodesicLength, pathLength, ringArea, utm32Of } from './geodesy';
export * from './resource-fields';
export { datumEditorValue, datumFieldsFromEditor, editedField } from './datum-editor-value';
export { keyOrderOf, inKeyOrder, keyOrderRestorer, type KeyOrder } from './key-order';
export {
  hasCoordinates,
  mappableFeatures,
  featuresBbox,
  fitBbox,
  isBbox,
  tileUrlTemplate,
  MAP_MAX_ZOOM,
  MAP_FIT_PADDING,
  type Bbox,
  type MapFeature,
  type LooseGeometry,
} from './map-geometry';
export {
  itemFeatures,
  itemImagery,
  SWITCHBOARD_MAP_IMAGERY_LIMIT,
  drawnGeometry,
  switchboardAction,
  switchboardMapPath,
  switchboardOfViewerPath,
  DRAW_MIN_POINTS,
  SWITCHBOARD_ACTION,
  SWITCHBOARD_MAP_LIMIT,
  SWITCHBOARD_VIEWER_URL,
  type DrawMode,
  type MapItemKind,
  type SwitchboardActionMessage,
  type SwitchboardMap,
  type SwitchboardMapFrame,
} from './switchboard-map';
export {
  wmsImageryOf,
  wmtsImageryOf,
  relayedImageryUrl,
  MAP_IMAGERY_RELAY_PATH,
  type MapImagery,
  type WmsImagery,
  type WmtsImagery,
} from './map-imagery';
