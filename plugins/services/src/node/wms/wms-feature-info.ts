import type { Layer } from '@werkbank/plugin-layers/api';
import type { ServedFeature } from '../published-layers';
import type { RenderFeature } from './map-render-task';
import { xml } from './wms-capabilities';

type Pt = [number, number];

/**
 * Whether a feature drawn on the map is under the pixel `at`: a point within `radius` px, a line
 * within 3 px, a polygon containing it (even-odd) or its outline within 3 px.
 */
export function hits(
  geometry: RenderFeature['geometry'],
  toPixel: (x: number, y: number) => Pt,
  at: Pt,
  radius: number,
): boolean {
  if (!geometry) return false;
  const px = (c: unknown): Pt | null =>
    Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number' ? toPixel(c[0], c[1]) : null;
  const line = (l: unknown): Pt[] => (Array.isArray(l) ? l.map(px).filter((p): p is Pt => !!p) : []);
  const near = (pts: Pt[], tol: number) => {
    for (let k = 1; k < pts.length; k++) if (segmentDistance(at, pts[k - 1], pts[k]) <= tol) return true;
    return pts.length === 1 && Math.hypot(pts[0][0] - at[0], pts[0][1] - at[1]) <= tol;
  };
  const c = geometry.coordinates as unknown[];
  switch (geometry.type) {
    case 'Point': {
      const p = px(c);
      return !!p && Math.hypot(p[0] - at[0], p[1] - at[1]) <= radius;
    }
    case 'MultiPoint':
      return line(c).some((p) => Math.hypot(p[0] - at[0], p[1] - at[1]) <= radius);
    case 'LineString':
      return near(line(c), 3);
    case 'MultiLineString':
      return (c ?? []).some((l) => near(line(l), 3));
    case 'Polygon':
      return polygonHit((c ?? []).map(line), at);
    case 'MultiPolygon':
      return (c ?? []).some((poly) => polygonHit(((poly as unknown[]) ?? []).map(line), at));
    case 'GeometryCollection':
      return ((geometry.geometries as RenderFeature['geometry'][]) ?? []).some((g) => hits(g, toPixel, at, radius));
    default:
      return false;
  }
}

function polygonHit(rings: Pt[][], at: Pt): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > at[1] !== yj > at[1] && at[0] < ((xj - xi) * (at[1] - yi)) / (yj - yi) + xi) inside = !inside;
      if (segmentDistance(at, ring[j], ring[i]) <= 3) return true;
    }
  }
  return inside;
}

function segmentDistance(p: Pt, a: Pt, b: Pt): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len)) : 0;
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

const html = (v: unknown) =>
  String(v ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * The features as an HTML page: a table per feature with the layer's visible selection fields
 * (display name, value, unit), or every property when the layer names none.
 */
export function featureInfoHtml(layer: Layer, features: ServedFeature[], lang: string): string {
  const fields = (layer.selection_fields ?? []).filter((f) => f.visible !== false);
  const title = layer.selection_title || layer.name;
  const tables = features.map((f) => {
    const props = f.properties ?? {};
    const rows = fields.length
      ? fields.map((x) => [x.displayName || x.key, `${text(props[x.key])}${x.unit && text(props[x.key]) ? ` ${x.unit}` : ''}`])
      : Object.entries(props).map(([k, v]) => [k, text(v)]);
    return `<table>${rows.map(([k, v]) => `<tr><th>${html(k)}</th><td>${html(v)}</td></tr>`).join('')}</table>`;
  });
  return (
    `<!DOCTYPE html>\n<html lang="${lang === 'de' ? 'de' : 'en'}"><head><meta charset="utf-8"><title>${html(title)}</title></head>` +
    `<body><h1>${html(title)}</h1>${tables.join('\n')}</body></html>\n`
  );
}

/** An XML name from a property name (characters outside a name become `_`). */
const xmlName = (name: string) => {
  const n = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(n) ? n : `_${n}`;
};

/** The features as GML (MapServer's msGMLOutput form, which desktop GIS read): properties and bounding box in degrees. */
export function featureInfoGml(layerName: string, features: ServedFeature[]): string {
  const name = xmlName(layerName);
  const items = features.map((f) => {
    const box = extentOf(f.geometry);
    const bounded = box
      ? `<gml:boundedBy><gml:Box srsName="EPSG:4326"><gml:coordinates>${box[0]},${box[1]} ${box[2]},${box[3]}</gml:coordinates></gml:Box></gml:boundedBy>`
      : '';
    const props = Object.entries(f.properties ?? {})
      .map(([k, v]) => `<${xmlName(k)}>${xml(text(v))}</${xmlName(k)}>`)
      .join('');
    return `<${name}_feature fid="${xml(f.id)}">${bounded}${props}</${name}_feature>`;
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<msGMLOutput xmlns:gml="http://www.opengis.net/gml" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    `<${name}_layer><gml:name>${xml(layerName)}</gml:name>${items.join('')}</${name}_layer></msGMLOutput>\n`
  );
}

/** A geometry's extent [west, south, east, north], or null when it has no position. */
export function extentOf(geometry: ServedFeature['geometry']): [number, number, number, number] | null {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      box[0] = Math.min(box[0], c[0]);
      box[1] = Math.min(box[1], c[1]);
      box[2] = Math.max(box[2], c[0]);
      box[3] = Math.max(box[3], c[1]);
    } else for (const x of c) visit(x);
  };
  const geom = (g: ServedFeature['geometry']): void => {
    if (!g) return;
    if (g.type === 'GeometryCollection') for (const m of (g.geometries as ServedFeature['geometry'][]) ?? []) geom(m);
    else visit(g.coordinates);
  };
  geom(geometry);
  return Number.isFinite(box[0]) ? box : null;
}
