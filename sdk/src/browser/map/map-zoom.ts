import { MAP_MAX_ZOOM } from '../../common/map-geometry';

/** Metres per pixel at the equator on zoom level 0 of the web tile pyramid. */
const METRES_PER_PIXEL_Z0 = 156543.03392804097;
/** Cesium's default field of view (60°). */
const HALF_FOV = Math.PI / 6;

/**
 * The camera distance at which a map `widthPx` wide shows what a web map shows at `maxZoom`
 * (spec 000 §9: 19) — Cesium's minimum zoom distance.
 */
export function maxZoomDistance(widthPx: number, maxZoom = MAP_MAX_ZOOM): number {
  return (widthPx * METRES_PER_PIXEL_Z0) / 2 ** maxZoom / (2 * Math.tan(HALF_FOV));
}
