/**
 * Features packed for the trip to a render worker: coordinates in one Float64Array, the counts of
 * parts, rings and positions in one Uint32Array, and the property values the style reads by
 * column. Copying these between threads is a few memory copies, where copying GeoJSON objects costs
 * seconds for a hundred thousand polygons (structured clone walks every array).
 */
import type { LayerStyle, StyleFilter } from '@werkbank/plugin-layers/api';

/** A geometry as the renderer reads it (GeoJSON, x east and y north in the map's CRS). */
export type PackedGeometry = { type: string; coordinates?: unknown; geometries?: unknown } | null;

/** Geometry type codes; Point and LineString are packed as their Multi forms with one member. */
const TYPES = [
  '',
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
] as const;

export interface PackedFeatures {
  count: number;
  /** Per feature the index of its geometry type in TYPES (0: none). */
  types: Uint8Array;
  /**
   * Per feature: points `n`; lines `lines, (positions)*`; polygons `polygons, (rings, (positions)*)*`;
   * nothing for collections and features without geometry.
   */
  structure: Uint32Array;
  /** x, y of every position, in feature order. */
  coords: Float64Array;
  /** The values of each property the style reads, one per feature (undefined: the feature lacks it). */
  columns: Record<string, unknown[]>;
  /** GeometryCollections by feature index, as they are. */
  collections: Record<number, PackedGeometry>;
}

const isPosition = (p: unknown): p is number[] =>
  Array.isArray(p) && typeof p[0] === 'number' && typeof p[1] === 'number' && Number.isFinite(p[0]) && Number.isFinite(p[1]);

/** Packs features one by one (`add`), then `finish` gives the arrays. */
export class FeaturePacker {
  private readonly types: number[] = [];
  private readonly structure: number[] = [];
  private readonly coords: number[] = [];
  private readonly columns: Record<string, unknown[]> = {};
  private readonly collections: Record<number, PackedGeometry> = {};

  constructor(private readonly attributes: string[]) {
    for (const a of attributes) this.columns[a] = [];
  }

  private positions(list: unknown): void {
    const at = this.structure.length;
    this.structure.push(0);
    let n = 0;
    if (Array.isArray(list))
      for (const p of list)
        if (isPosition(p)) {
          this.coords.push(p[0], p[1]);
          n++;
        }
    this.structure[at] = n;
  }

  private many(list: unknown, each: (x: unknown) => void): void {
    const items = Array.isArray(list) ? list : [];
    this.structure.push(items.length);
    for (const x of items) each(x);
  }

  add(geometry: PackedGeometry, properties: Record<string, unknown> | null): void {
    const index = this.types.length;
    const c = geometry?.coordinates;
    let type = geometry ? TYPES.indexOf(geometry.type as (typeof TYPES)[number]) : 0;
    if (type < 0) type = 0;
    this.types.push(type);
    switch (TYPES[type]) {
      case 'Point':
        this.positions([c]);
        break;
      case 'MultiPoint':
        this.positions(c);
        break;
      case 'LineString':
        this.many([c], (l) => this.positions(l));
        break;
      case 'MultiLineString':
        this.many(c, (l) => this.positions(l));
        break;
      case 'Polygon':
        this.many([c], (poly) => this.many(poly, (ring) => this.positions(ring)));
        break;
      case 'MultiPolygon':
        this.many(c, (poly) => this.many(poly, (ring) => this.positions(ring)));
        break;
      case 'GeometryCollection':
        this.collections[index] = geometry;
        break;
    }
    for (const a of this.attributes) this.columns[a].push(properties ? properties[a] : undefined);
  }

  finish(): PackedFeatures {
    return {
      count: this.types.length,
      types: Uint8Array.from(this.types),
      structure: Uint32Array.from(this.structure),
      coords: Float64Array.from(this.coords),
      columns: this.columns,
      collections: this.collections,
    };
  }
}

/** A feature's geometry in pixels: its points, lines and polygons (rings of positions). */
export interface PixelParts {
  points: number[][];
  lines: number[][][];
  polygons: number[][][][];
}

type Xy = (x: number, y: number) => [number, number];

/** The pixel parts of a GeoJSON geometry. */
export function geometryParts(geometry: PackedGeometry, xy: Xy): PixelParts {
  const out: PixelParts = { points: [], lines: [], polygons: [] };
  const line = (l: unknown): number[][] => (Array.isArray(l) ? l.filter(isPosition).map((p) => xy(p[0], p[1])) : []);
  const visit = (geom: PackedGeometry) => {
    if (!geom) return;
    const c = geom.coordinates as unknown[];
    switch (geom.type) {
      case 'Point':
        out.points.push(...line([c]));
        break;
      case 'MultiPoint':
        out.points.push(...line(c));
        break;
      case 'LineString':
        out.lines.push(line(c));
        break;
      case 'MultiLineString':
        for (const l of c ?? []) out.lines.push(line(l));
        break;
      case 'Polygon':
        out.polygons.push((c ?? []).map(line));
        break;
      case 'MultiPolygon':
        for (const poly of c ?? []) out.polygons.push(((poly as unknown[]) ?? []).map(line));
        break;
      case 'GeometryCollection':
        for (const member of (geom.geometries as PackedGeometry[]) ?? []) visit(member);
        break;
    }
  };
  visit(geometry);
  return out;
}

/** A packed feature as the renderer draws it: what evaluateStyle reads, and its pixel parts. */
export interface UnpackedFeature {
  geometry: PackedGeometry;
  properties: Record<string, unknown>;
  parts: PixelParts;
}

/** The packed features in order, their positions turned into pixels by `xy`. */
export function* unpack(packed: PackedFeatures, xy: Xy): Generator<UnpackedFeature> {
  const { structure: s, coords } = packed;
  let si = 0;
  let ci = 0;
  const positions = (): number[][] => {
    const n = s[si++];
    const out: number[][] = new Array(n);
    for (let k = 0; k < n; k++, ci += 2) out[k] = xy(coords[ci], coords[ci + 1]);
    return out;
  };
  const names = Object.keys(packed.columns);
  for (let i = 0; i < packed.count; i++) {
    const type = TYPES[packed.types[i]];
    const properties: Record<string, unknown> = {};
    for (const name of names) {
      const v = packed.columns[name][i];
      if (v !== undefined) properties[name] = v;
    }
    const parts: PixelParts = { points: [], lines: [], polygons: [] };
    let geometry: PackedGeometry = type ? { type } : null;
    if (type === 'Point' || type === 'MultiPoint') parts.points = positions();
    else if (type === 'LineString' || type === 'MultiLineString') {
      const n = s[si++];
      for (let k = 0; k < n; k++) parts.lines.push(positions());
    } else if (type === 'Polygon' || type === 'MultiPolygon') {
      const n = s[si++];
      for (let k = 0; k < n; k++) {
        const rings = s[si++];
        const poly: number[][][] = [];
        for (let r = 0; r < rings; r++) poly.push(positions());
        parts.polygons.push(poly);
      }
    } else if (type === 'GeometryCollection') {
      geometry = packed.collections[i] ?? null;
      Object.assign(parts, geometryParts(geometry, xy));
    }
    yield { geometry, properties, parts };
  }
}

/** The properties a style reads (filters and labels): the renderer needs no others. */
export function styleAttributes(style: LayerStyle): string[] {
  const out = new Set<string>();
  const visit = (f: StyleFilter | null | undefined): void => {
    if (!f) return;
    if (f.op === 'and' || f.op === 'or') f.filters.forEach(visit);
    else if (f.op === 'not') visit(f.filter);
    else out.add(f.attribute);
  };
  for (const rule of style.rules ?? []) {
    visit(rule.filter);
    const label = rule.symbol?.text_label?.trim();
    if (label) out.add(label);
  }
  return [...out];
}
