import type { FeatureReprojection } from '@werkbank/plugin-geodata/api';
import { epsgName, isGeographic, WMS_CRS, WmsProblem, type WmsVersion } from '../../common/wms-params';

type Box = [number, number, number, number];

/** The window in degrees that a box of a CRS covers (its edges reprojected at 16 points each). */
export async function windowOf(reprojection: FeatureReprojection, crs: string, bbox: Box): Promise<Box> {
  if (isGeographic(crs)) return bbox;
  const [x0, y0, x1, y1] = bbox;
  const ring: number[][] = [];
  const steps = 16;
  for (let i = 0; i <= steps; i++) ring.push([x0 + ((x1 - x0) * i) / steps, y0]);
  for (let i = 1; i <= steps; i++) ring.push([x1, y0 + ((y1 - y0) * i) / steps]);
  for (let i = 1; i <= steps; i++) ring.push([x1 - ((x1 - x0) * i) / steps, y1]);
  for (let i = 1; i <= steps; i++) ring.push([x0, y1 - ((y1 - y0) * i) / steps]);
  const to4326 = await reprojection.reprojector(epsgName(crs), 'EPSG:4326');
  let out: Record<string, unknown>;
  try {
    out = to4326({ type: 'Feature', geometry: { type: 'MultiPoint', coordinates: ring }, properties: {} }, 0);
  } catch {
    throw new WmsProblem('InvalidParameterValue', 'bbox_range', {}, 'bbox');
  }
  const coords = (out.geometry as { coordinates: number[][] }).coordinates;
  const xs = coords.map((c) => c[0]);
  const ys = coords.map((c) => c[1]);
  if (![...xs, ...ys].every(Number.isFinite)) throw new WmsProblem('InvalidParameterValue', 'bbox_range', {}, 'bbox');
  const w: Box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  if (w[2] < -180 || w[0] > 180 || w[3] < -90 || w[1] > 90 || w[2] - w[0] > 720)
    throw new WmsProblem('InvalidParameterValue', 'bbox_range', {}, 'bbox');
  return [Math.max(-180, w[0]), Math.max(-90, w[1]), Math.min(180, w[2]), Math.min(90, w[3])];
}

/** A box in degrees as a box of another CRS (its edges reprojected). */
export async function boxIn(reprojection: FeatureReprojection, extent: Box, crs: string): Promise<Box> {
  const project = await reprojection.reprojector('EPSG:4326', epsgName(crs));
  const [w, s, e, n] = extent;
  const points: number[][] = [];
  for (let i = 0; i <= 8; i++) {
    points.push([w + ((e - w) * i) / 8, s], [w + ((e - w) * i) / 8, n], [w, s + ((n - s) * i) / 8], [e, s + ((n - s) * i) / 8]);
  }
  const out = project({ type: 'Feature', geometry: { type: 'MultiPoint', coordinates: points }, properties: {} }, 0);
  const c = (out.geometry as { coordinates: number[][] }).coordinates;
  const xs = c.map((x) => x[0]);
  const ys = c.map((x) => x[1]);
  if (![...xs, ...ys].every(Number.isFinite)) throw new Error('outside');
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** A layer's extent (degrees) as a BoundingBox per offered WMS CRS, where the CRS's area holds it. */
export async function crsBoxes(reprojection: FeatureReprojection, extent: Box, version: WmsVersion): Promise<Map<string, Box>> {
  const boxes = new Map<string, Box>();
  for (const crs of WMS_CRS) {
    if (crs === 'CRS:84' && version !== '1.3.0') continue;
    try {
      boxes.set(crs, isGeographic(crs) ? extent : await boxIn(reprojection, extent, crs));
    } catch {
      // A CRS whose area does not hold the layer gets no BoundingBox.
    }
  }
  return boxes;
}
