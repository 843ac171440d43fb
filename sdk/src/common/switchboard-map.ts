/**
 * The switchboard preview's map (decision 0090): the contract between the switchboards plugin, which
 * answers it, and the viewer in switchboard mode, which draws it and edits features in it.
 */
import { hasCoordinates, type Bbox, type LooseGeometry, type MapFeature } from './map-geometry';
import { wmsImageryOf, wmtsImageryOf, type MapImagery } from './map-imagery';

/** A frame visible on the map (spec 000 §4), with its items as GeoJSON features. */
export interface SwitchboardMapFrame {
  /** The frame's address `/api/v1/frame/{id}/`. */
  uri: string;
  id: number;
  name: string;
  type_name: string;
  /** Edited in the map: the frame is marked so and the caller may change the switchboard. */
  edit: boolean;
  /** The content the features come from (sent back with item edits, so nothing newer is overwritten). */
  content_hash: string | null;
  /** How many items the frame holds. */
  total: number;
  /** The first SWITCHBOARD_MAP_LIMIT items only. */
  truncated: boolean;
  /** One feature per mappable item; its `id` is the item's index in the frame. */
  features: MapFeature[];
  /** WMS and WMTS frames: their services as imagery over the base map (items without a usable address left out). */
  imagery: MapImagery[];
}

export interface SwitchboardMap {
  id: number;
  name: string;
  base_map_tile_url: string | null;
  frames: SwitchboardMapFrame[];
}

/** How many items of a frame the map shows. */
export const SWITCHBOARD_MAP_LIMIT = 10_000;

/** The call that answers a switchboard's map. */
export const switchboardMapPath = (id: number | string): string => `/api/v1/switchboard/${id}/map/`;

/** The viewer in switchboard mode: `/viewer/switchboard/{id}/` (the default VIEWER_URL_SWITCHBOARD). */
export const SWITCHBOARD_VIEWER_URL = '/viewer/switchboard/{id}/';

/** The switchboard a viewer address opens in switchboard mode, or undefined. */
export function switchboardOfViewerPath(path: string): number | undefined {
  const m = /^\/viewer\/switchboard\/(\d{1,9})\/?$/.exec(path);
  return m ? Number(m[1]) : undefined;
}

/** The item types the map draws: features (and types deriving from them), bboxes, and WMS and WMTS services. */
export type MapItemKind = 'feature' | 'bbox' | 'wms' | 'wmts';

/** How many service items of a frame the map draws (each is a layer of imagery). */
export const SWITCHBOARD_MAP_IMAGERY_LIMIT = 20;

/** The imagery of a WMS or WMTS frame's items (wms, wmts datums), at most SWITCHBOARD_MAP_IMAGERY_LIMIT. */
export function itemImagery(kind: MapItemKind, items: readonly unknown[]): MapImagery[] {
  if (kind !== 'wms' && kind !== 'wmts') return [];
  const out: MapImagery[] = [];
  for (const item of items.slice(0, SWITCHBOARD_MAP_IMAGERY_LIMIT)) {
    const datum = (item ?? {}) as { tms_url?: unknown; layers?: unknown; transparent?: unknown; bbox?: unknown };
    const imagery = kind === 'wms' ? wmsImageryOf(datum) : wmtsImageryOf(datum);
    if (imagery) out.push(imagery);
  }
  return out;
}

/**
 * The features of a frame's items: a feature item as it is, a bbox item as its rectangle; items
 * without drawable coordinates are left out. Each feature's id is its item's index.
 */
export function itemFeatures(kind: MapItemKind, items: readonly unknown[]): MapFeature[] {
  const out: MapFeature[] = [];
  if (kind === 'wms' || kind === 'wmts') return out;
  items.forEach((item, index) => {
    const it = item as {
      feature?: { geometry?: LooseGeometry | null; properties?: Record<string, unknown> | null };
      value?: unknown;
    };
    if (kind === 'feature') {
      const geometry = it?.feature?.geometry ?? null;
      if (hasCoordinates(geometry)) out.push({ type: 'Feature', id: index, geometry, properties: it.feature?.properties ?? {} });
      return;
    }
    const b = it?.value;
    if (Array.isArray(b) && b.length === 4 && b.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      const [w, s, e, n] = b as Bbox;
      const ring = [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ];
      out.push({ type: 'Feature', id: index, geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} });
    }
  });
  return out;
}

/** Messages between the canvas and the viewer in its preview frame (same origin only). */
export const SWITCHBOARD_ACTION = 'switchboard_action';
export interface SwitchboardActionMessage {
  type: typeof SWITCHBOARD_ACTION;
  action: string;
  args: unknown[];
}

/** A `switchboard_action` message (`{type, action, args}` or `['switchboard_action', action, args]`), or undefined. */
export function switchboardAction(data: unknown): { action: string; args: unknown[] } | undefined {
  let action: unknown;
  let args: unknown;
  if (Array.isArray(data) && data[0] === SWITCHBOARD_ACTION) [, action, args] = data;
  else if (data && typeof data === 'object' && (data as { type?: unknown }).type === SWITCHBOARD_ACTION)
    ({ action, args } = data as { action: unknown; args: unknown });
  else return undefined;
  return typeof action === 'string' ? { action, args: Array.isArray(args) ? args : [] } : undefined;
}

/** What the viewer draws into a frame edited in the map. */
export type DrawMode = 'Point' | 'LineString' | 'Polygon';

/** How many points each kind of drawn geometry needs. */
export const DRAW_MIN_POINTS: Record<DrawMode, number> = { Point: 1, LineString: 2, Polygon: 3 };

/**
 * The geometry of drawn points (lon, lat): a point (the last one clicked), a line, or a polygon
 * whose ring is closed; undefined while there are too few points.
 */
export function drawnGeometry(mode: DrawMode, points: readonly [number, number][]): LooseGeometry | undefined {
  if (points.length < DRAW_MIN_POINTS[mode]) return undefined;
  const at = points.map(([lon, lat]) => [lon, lat]);
  if (mode === 'Point') return { type: 'Point', coordinates: at[at.length - 1] };
  if (mode === 'LineString') return { type: 'LineString', coordinates: at };
  return { type: 'Polygon', coordinates: [[...at, at[0]]] };
}
