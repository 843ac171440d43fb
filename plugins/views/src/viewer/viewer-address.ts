/** What a viewer address opens, and a camera shared in it (pure, decision 0088). */
import { finalviewScenePath, viewScenePath } from '../common/view-scene';
import type { CameraPosition } from '../common/view-tree';

/** What the address opens: `/viewer/{slug or id}/` a view, `/finalview/{slug}/` a frozen view. */
export function sceneAddress(path: string): string | undefined {
  const m = /^\/(viewer|finalview)\/([^/]+)\/?$/.exec(path);
  if (!m) return undefined;
  const ref = decodeURIComponent(m[2]);
  return m[1] === 'viewer' ? viewScenePath(ref) : finalviewScenePath(ref);
}

/** A camera in a shared link (`camera=lon,lat,height,heading,pitch,roll`), or undefined. */
export function sharedCamera(search: string): CameraPosition | undefined {
  const parts = new URLSearchParams(search).get('camera')?.split(',').map(Number);
  if (!parts || parts.length !== 6 || parts.some((n) => !Number.isFinite(n))) return undefined;
  const [lon, lat, height, heading, pitch, roll] = parts;
  if (Math.abs(lon) > 180 || Math.abs(lat) > 90) return undefined;
  return { lon, lat, height, heading, pitch, roll };
}
