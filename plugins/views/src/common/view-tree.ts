/**
 * A view's layer tree, POI tree, home position and configuration (spec 002 §3, §9; decision 0086):
 * their shapes, their defaults and the one check both the view editor and the server apply. The
 * check normalizes: a missing field takes its default, a known field of a wrong kind is a problem
 * naming its place (`layergroup.layergroups[0].layers[2].opacity`).
 */

export const GROUP_DISPLAYS = ['folder', 'layer', 'layerlegend', 'variants', 'filters'] as const;
export type GroupDisplay = (typeof GROUP_DISPLAYS)[number];
export const GROUND_REFS = ['absolute', 'relative', 'none'] as const;
export type GroundRef = (typeof GROUND_REFS)[number];

/** Deepest nesting of groups in either tree, and most entries (layers, POIs and groups) in one view. */
export const MAX_DEPTH = 10;
export const MAX_ENTRIES = 2000;

/** A layer in a view (spec 001 §3.2, 002 §3). `layer` is the layer's address (`/api/v1/layer/{id}/`). */
export interface ViewLayer {
  /** Names the entry within the view (POIs show and hide layers by it). */
  id: string;
  layer: string;
  /** The name in the layer tree; empty: the layer's own name. */
  name: string;
  /** The layer's type when the entry was saved (the viewer picks how to draw it). */
  type: string;
  visible: boolean;
  init_visible: boolean;
  single: boolean;
  queryable: boolean;
  exportable: boolean;
  layer_description_visible: boolean;
  layer_revision_modified_visible: boolean;
  layer_zoom_to_extent_visible: boolean;
  viewer_state_visibility: boolean;
  opacity_editable: boolean;
  opacity: number;
  /** The time range the viewer's time slider offers for the layer (ISO 8601), null: none. */
  time_min: string | null;
  time_max: string | null;
  /** The layer's own time range when the entry was saved. */
  layer_time_min: string | null;
  layer_time_max: string | null;
}

export interface ViewLayerGroup {
  name: string;
  visible: boolean;
  init_visible: boolean;
  init_expanded: boolean;
  group_display: GroupDisplay;
  layers: ViewLayer[];
  layergroups: ViewLayerGroup[];
}

/** A POI's layer switch: the view layer entry `id` is shown (`visible` true) or hidden when the camera arrives. */
export interface PoiLayer {
  id: string;
  visible: boolean;
}

export interface Poi {
  name: string;
  lat: number;
  lon: number;
  /** Metres, as `ground_ref` says. */
  height: number;
  ground_ref: GroundRef;
  /** The camera's distance from the point (m). */
  elevation: number;
  /** Degrees. */
  yaw: number;
  pitch: number;
  roll: number;
  visible: boolean;
  /** Seconds of the camera's flight to the POI, and of the stay there in a tour. */
  fly_duration: number;
  wait_duration: number;
  layers: PoiLayer[];
  vistacode: string;
}

export interface PoiGroup {
  name: string;
  visible: boolean;
  init_expanded: boolean;
  is_tour: boolean;
  pois: Poi[];
  poigroups: PoiGroup[];
}

/** The camera of an explicit start position: degrees and metres above the ellipsoid. */
export interface CameraPosition {
  lon: number;
  lat: number;
  height: number;
  heading: number;
  pitch: number;
  roll: number;
}

/** What goes wrong in a tree: an i18n key of the views namespace, its parameters, the field's path. */
export interface ViewProblem {
  key: string;
  field: string;
  params?: Record<string, unknown>;
}

/** spec 002 §9: a new view layer entry. */
export function newViewLayer(layer: string, id: string): ViewLayer {
  return {
    id,
    layer,
    name: '',
    type: 'feature',
    visible: true,
    init_visible: true,
    single: false,
    queryable: false,
    exportable: false,
    layer_description_visible: true,
    layer_revision_modified_visible: false,
    layer_zoom_to_extent_visible: true,
    viewer_state_visibility: true,
    opacity_editable: false,
    opacity: 1,
    time_min: null,
    time_max: null,
    layer_time_min: null,
    layer_time_max: null,
  };
}

/** spec 002 §9: a new layer group. */
export const newLayerGroup = (name = 'Group'): ViewLayerGroup => ({
  name,
  visible: true,
  init_visible: true,
  init_expanded: true,
  group_display: 'folder',
  layers: [],
  layergroups: [],
});

/** spec 002 §9: a new POI (at a place; the camera looks down at 45° from 1,000 m). */
export const newPoi = (lon: number, lat: number, name = 'POI'): Poi => ({
  name,
  lat,
  lon,
  height: 0,
  ground_ref: 'relative',
  elevation: 1000,
  yaw: 0,
  pitch: -45,
  roll: 0,
  visible: true,
  fly_duration: 3,
  wait_duration: 5,
  layers: [],
  vistacode: '',
});

/** spec 002 §9: a new POI group. */
export const newPoiGroup = (name = 'Group'): PoiGroup => ({
  name,
  visible: true,
  init_expanded: false,
  is_tour: false,
  pois: [],
  poigroups: [],
});

/** The layer group of a new view: the root, holding nothing. */
export const emptyLayerTree = (): ViewLayerGroup => ({ ...newLayerGroup(''), layers: [], layergroups: [] });
export const emptyPoiTree = (): PoiGroup => ({ ...newPoiGroup(''), pois: [], poigroups: [] });

/** The layer id in a layer address (`/api/v1/layer/7/` or `7`), or undefined. */
export function layerIdOf(address: unknown): number | undefined {
  const m = /^(?:\/api\/v1\/layer\/)?(\d{1,9})\/?$/.exec(String(address ?? '').trim());
  return m ? Number(m[1]) : undefined;
}

/** Problems are thrown inside the walk and caught by the check (the first one is reported). */
class Refused extends Error {
  constructor(readonly problem: ViewProblem) {
    super(problem.key);
  }
}

const refuse = (key: string, field: string, params?: Record<string, unknown>): never => {
  throw new Refused({ key, field, ...(params ? { params } : {}) });
};

type Source = Record<string, unknown>;

function object(v: unknown, field: string): Source {
  if (!v || typeof v !== 'object' || Array.isArray(v)) refuse('errors.object', field);
  return v as Source;
}

function list(v: unknown, field: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) refuse('errors.list', field);
  return v as unknown[];
}

function text(v: unknown, fallback: string, field: string, max = 500): string {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') refuse('errors.text', field);
  if ((v as string).length > max) refuse('errors.too_long', field, { max });
  return v as string;
}

function bool(v: unknown, fallback: boolean, field: string): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') refuse('errors.boolean', field);
  return v as boolean;
}

function number(v: unknown, fallback: number | undefined, field: string, min = -Infinity, max = Infinity): number {
  if ((v === undefined || v === null || v === '') && fallback !== undefined) return fallback;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) refuse('errors.number', field);
  if ((n as number) < min || (n as number) > max) refuse('errors.range', field, { min, max });
  return n as number;
}

function time(v: unknown, field: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) refuse('errors.time', field);
  return new Date(v as string).toISOString();
}

function choice<T extends string>(v: unknown, options: readonly T[], fallback: T, field: string): T {
  if (v === undefined || v === null || v === '') return fallback;
  if (!options.includes(v as T)) refuse('errors.choice', field, { allowed: options.join(', ') });
  return v as T;
}

/** Walks both trees with shared limits (depth, entries) and the layer entries' ids. */
class Walk {
  entries = 0;
  readonly ids = new Set<string>();
  private readonly unnamed: ViewLayer[] = [];
  private next = 1;

  count(field: string): void {
    if (++this.entries > MAX_ENTRIES) refuse('errors.too_many', field, { max: MAX_ENTRIES });
  }

  layer(v: unknown, field: string): ViewLayer {
    this.count(field);
    const s = object(v, field);
    const layerId = layerIdOf(s.layer);
    if (layerId === undefined) refuse('errors.layer_address', `${field}.layer`);
    const id = text(typeof s.id === 'number' ? String(s.id) : s.id, '', `${field}.id`, 100);
    if (id && this.ids.has(id)) refuse('errors.duplicate_id', `${field}.id`, { id });
    if (id) this.ids.add(id);
    const d = newViewLayer(`/api/v1/layer/${layerId}/`, id);
    const out: ViewLayer = {
      ...d,
      name: text(s.name, d.name, `${field}.name`, 200),
      type: text(s.type, d.type, `${field}.type`, 32),
      visible: bool(s.visible, d.visible, `${field}.visible`),
      init_visible: bool(s.init_visible, d.init_visible, `${field}.init_visible`),
      single: bool(s.single, d.single, `${field}.single`),
      queryable: bool(s.queryable, d.queryable, `${field}.queryable`),
      exportable: bool(s.exportable, d.exportable, `${field}.exportable`),
      layer_description_visible: bool(
        s.layer_description_visible,
        d.layer_description_visible,
        `${field}.layer_description_visible`,
      ),
      layer_revision_modified_visible: bool(
        s.layer_revision_modified_visible,
        d.layer_revision_modified_visible,
        `${field}.layer_revision_modified_visible`,
      ),
      layer_zoom_to_extent_visible: bool(
        s.layer_zoom_to_extent_visible,
        d.layer_zoom_to_extent_visible,
        `${field}.layer_zoom_to_extent_visible`,
      ),
      viewer_state_visibility: bool(s.viewer_state_visibility, d.viewer_state_visibility, `${field}.viewer_state_visibility`),
      opacity_editable: bool(s.opacity_editable, d.opacity_editable, `${field}.opacity_editable`),
      opacity: number(s.opacity, d.opacity, `${field}.opacity`, 0, 1),
      time_min: time(s.time_min, `${field}.time_min`),
      time_max: time(s.time_max, `${field}.time_max`),
      layer_time_min: time(s.layer_time_min, `${field}.layer_time_min`),
      layer_time_max: time(s.layer_time_max, `${field}.layer_time_max`),
    };
    if (out.time_min && out.time_max && out.time_min > out.time_max) refuse('errors.time_order', `${field}.time_max`);
    if (!id) this.unnamed.push(out);
    return out;
  }

  /** Gives the entries without an id the first free ids `l1`, `l2`, … (after every given id is known). */
  nameEntries(): void {
    for (const entry of this.unnamed) {
      while (this.ids.has(`l${this.next}`)) this.next++;
      entry.id = `l${this.next}`;
      this.ids.add(entry.id);
    }
  }

  layerGroup(v: unknown, field: string, depth: number): ViewLayerGroup {
    if (depth > MAX_DEPTH) refuse('errors.too_deep', field, { max: MAX_DEPTH });
    if (depth > 0) this.count(field);
    const s = object(v, field);
    const d = depth === 0 ? emptyLayerTree() : newLayerGroup();
    return {
      name: text(s.name, d.name, `${field}.name`, 200),
      visible: bool(s.visible, d.visible, `${field}.visible`),
      init_visible: bool(s.init_visible, d.init_visible, `${field}.init_visible`),
      init_expanded: bool(s.init_expanded, d.init_expanded, `${field}.init_expanded`),
      group_display: choice(s.group_display, GROUP_DISPLAYS, d.group_display, `${field}.group_display`),
      layers: list(s.layers, `${field}.layers`).map((l, i) => this.layer(l, `${field}.layers[${i}]`)),
      layergroups: list(s.layergroups, `${field}.layergroups`).map((g, i) =>
        this.layerGroup(g, `${field}.layergroups[${i}]`, depth + 1),
      ),
    };
  }

  poi(v: unknown, field: string): Poi {
    this.count(field);
    const s = object(v, field);
    const lat = number(s.lat, undefined, `${field}.lat`, -90, 90);
    const lon = number(s.lon, undefined, `${field}.lon`, -180, 180);
    const d = newPoi(lon, lat);
    return {
      name: text(s.name, d.name, `${field}.name`, 200),
      lat,
      lon,
      height: number(s.height, d.height, `${field}.height`, -12000, 1e7),
      ground_ref: choice(s.ground_ref, GROUND_REFS, d.ground_ref, `${field}.ground_ref`),
      elevation: number(s.elevation, d.elevation, `${field}.elevation`, 0, 1e8),
      yaw: number(s.yaw, d.yaw, `${field}.yaw`, -360, 360),
      pitch: number(s.pitch, d.pitch, `${field}.pitch`, -90, 90),
      roll: number(s.roll, d.roll, `${field}.roll`, -360, 360),
      visible: bool(s.visible, d.visible, `${field}.visible`),
      fly_duration: number(s.fly_duration, d.fly_duration, `${field}.fly_duration`, 0, 3600),
      wait_duration: number(s.wait_duration, d.wait_duration, `${field}.wait_duration`, 0, 3600),
      layers: list(s.layers, `${field}.layers`).map((x, i) => {
        const at = `${field}.layers[${i}]`;
        const l = object(x, at);
        return {
          id: text(typeof l.id === 'number' ? String(l.id) : l.id, '', `${at}.id`, 100),
          visible: bool(l.visible, true, `${at}.visible`),
        };
      }),
      vistacode: text(s.vistacode, d.vistacode, `${field}.vistacode`, 2000),
    };
  }

  poiGroup(v: unknown, field: string, depth: number): PoiGroup {
    if (depth > MAX_DEPTH) refuse('errors.too_deep', field, { max: MAX_DEPTH });
    if (depth > 0) this.count(field);
    const s = object(v, field);
    const d = depth === 0 ? emptyPoiTree() : newPoiGroup();
    return {
      name: text(s.name, d.name, `${field}.name`, 200),
      visible: bool(s.visible, d.visible, `${field}.visible`),
      init_expanded: bool(s.init_expanded, d.init_expanded, `${field}.init_expanded`),
      is_tour: bool(s.is_tour, d.is_tour, `${field}.is_tour`),
      pois: list(s.pois, `${field}.pois`).map((p, i) => this.poi(p, `${field}.pois[${i}]`)),
      poigroups: list(s.poigroups, `${field}.poigroups`).map((g, i) => this.poiGroup(g, `${field}.poigroups[${i}]`, depth + 1)),
    };
  }
}

/** The layer entries of a layer tree, depth first in tree order. */
export function viewLayers(tree: ViewLayerGroup): ViewLayer[] {
  return [...tree.layers, ...tree.layergroups.flatMap(viewLayers)];
}

/** Every POI of a POI tree, depth first in tree order. */
export function viewPois(tree: PoiGroup): Poi[] {
  return [...tree.pois, ...tree.poigroups.flatMap(viewPois)];
}

/**
 * A view's layer and POI trees checked and completed with their defaults (either may be absent: it
 * is then empty). A POI may only switch layers the view holds.
 */
export function checkTrees(
  layergroup: unknown,
  poigroup: unknown,
): { layergroup: ViewLayerGroup; poigroup: PoiGroup; problem?: undefined } | { problem: ViewProblem } {
  try {
    const walk = new Walk();
    const layers = walk.layerGroup(layergroup ?? {}, 'layergroup', 0);
    walk.nameEntries();
    const pois = walk.poiGroup(poigroup ?? {}, 'poigroup', 0);
    const check = (group: PoiGroup, field: string): void => {
      group.pois.forEach((p, i) =>
        p.layers.forEach((l, j) => {
          if (!walk.ids.has(l.id)) refuse('errors.poi_layer', `${field}.pois[${i}].layers[${j}].id`, { id: l.id });
        }),
      );
      group.poigroups.forEach((g, i) => check(g, `${field}.poigroups[${i}]`));
    };
    check(pois, 'poigroup');
    return { layergroup: layers, poigroup: pois };
  } catch (e) {
    if (e instanceof Refused) return { problem: e.problem };
    throw e;
  }
}

/** An explicit start position, or null (spec 002 §5: sent only when ticked; null means 'Automatic'). */
export function checkHome(v: unknown): { home: CameraPosition | null; problem?: undefined } | { problem: ViewProblem } {
  if (v === undefined || v === null) return { home: null };
  try {
    const s = object(v, 'home');
    return {
      home: {
        lon: number(s.lon, undefined, 'home.lon', -180, 180),
        lat: number(s.lat, undefined, 'home.lat', -90, 90),
        height: number(s.height, undefined, 'home.height', -12000, 1e8),
        heading: number(s.heading, 0, 'home.heading', -360, 360),
        pitch: number(s.pitch, -90, 'home.pitch', -90, 90),
        roll: number(s.roll, 0, 'home.roll', -360, 360),
      },
    };
  } catch (e) {
    if (e instanceof Refused) return { problem: e.problem };
    throw e;
  }
}

/** A view's configuration: an object whose `viewer.start_state` is a start mode name ('' = Automatic). */
export interface ViewConfig {
  viewer: { start_state: string } & Record<string, unknown>;
  tools?: Record<string, unknown>;
  [key: string]: unknown;
}

export function checkConfig(v: unknown): { config: ViewConfig; problem?: undefined } | { problem: ViewProblem } {
  try {
    const s = v === undefined || v === null ? {} : object(v, 'config');
    const viewer = s.viewer === undefined || s.viewer === null ? {} : object(s.viewer, 'config.viewer');
    const tools = s.tools === undefined || s.tools === null ? undefined : object(s.tools, 'config.tools');
    if (JSON.stringify(s).length > 100_000) refuse('errors.too_long', 'config', { max: 100_000 });
    return {
      config: {
        ...s,
        viewer: { ...viewer, start_state: text(viewer.start_state, '', 'config.viewer.start_state', 100) },
        ...(tools ? { tools } : {}),
      },
    };
  } catch (e) {
    if (e instanceof Refused) return { problem: e.problem };
    throw e;
  }
}
