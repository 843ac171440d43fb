import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { knownCrs, WGS84 } from '../reproject/feature-crs';
import { featureReprojector } from '../reproject/reproject-geometry';
import { CHUNK } from './geometry-items';

/** Feature items in EPSG:4326 and the CRS they came in. */
export interface Wgs84Items {
  items: FrameItems;
  crs: string;
}

/**
 * The features of `port` in EPSG:4326, for functions that compute on WGS 84 (geodesic area and
 * length, a buffer in metres): features labelled with another CRS are reprojected (decision
 * 0035); unlabelled features must have longitudes and latitudes, else `crs_missing` asks for
 * their CRS instead of computing nonsense.
 */
export async function inWgs84(items: FrameItems, port: string, ctx: FunctionRunContext): Promise<Wgs84Items> {
  const crs = knownCrs(items, port);
  if (crs === WGS84) return { items, crs };
  ctx.log(`${port}: computing in EPSG:4326 for features in ${crs}`);
  return { items: await reprojected(items, crs, WGS84, ctx), crs };
}

/** Features computed in EPSG:4326 back in `crs`, the CRS their inputs came in. */
export async function backFromWgs84(items: FrameItems, crs: string, ctx: FunctionRunContext): Promise<FrameItems> {
  return crs === WGS84 ? items : reprojected(items, WGS84, crs, ctx);
}

async function reprojected(items: FrameItems, from: string, to: string, ctx: FunctionRunContext): Promise<FrameItems> {
  const reproject = await featureReprojector(from, to);
  const out: FrameItems = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    out.push(item?.feature ? { ...item, feature: reproject(item.feature, i) } : item);
    if ((i + 1) % CHUNK === 0) {
      ctx.signal.throwIfAborted();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return out;
}
