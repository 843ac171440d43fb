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

/**
 * Packed features with what picks a window's share without reading them again (decision 0083,
 * "Map geometry per publication"): each feature's extent in degrees and where its structure and
 * coordinates start.
 */
export interface IndexedFeatures {
  packed: PackedFeatures;
  /** minx, miny, maxx, maxy per feature (NaN: no extent, never in a window). */
  boxes: Float64Array;
  /** Per feature (and one past the last) the index of its first entry in `structure`. */
  structureAt: Uint32Array;
  /** Per feature (and one past the last) the index of its first number in `coords`. */
  coordsAt: Uint32Array;
}

/** Packs features one by one (`add`), then `finish` gives the arrays (`finishIndexed` with extents and offsets). */
export class FeaturePacker {
  private readonly types: number[] = [];
  private readonly structure: number[] = [];
  private readonly coords: number[] = [];
  private readonly columns: Record<string, unknown[]> = {};
  private readonly collections: Record<number, PackedGeometry> = {};
  private readonly boxes: number[] = [];
  private readonly structureAt: number[] = [];
  private readonly coordsAt: number[] = [];

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

  /** Adds a feature; `box` (its extent in degrees) is kept for `finishIndexed`. */
  add(geometry: PackedGeometry, properties: Record<string, unknown> | null, box?: readonly number[] | null): void {
    const index = this.types.length;
    this.structureAt.push(this.structure.length);
    this.coordsAt.push(this.coords.length);
    if (box) this.boxes.push(box[0], box[1], box[2], box[3]);
    else this.boxes.push(NaN, NaN, NaN, NaN);
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

  /**
   * The packed features with their extents and offsets; the geometry arrays live in shared memory,
   * so sending a whole layer to a render worker copies no coordinates.
   */
  finishIndexed(): IndexedFeatures {
    const packed = this.finish();
    const share = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, make: (b: SharedArrayBuffer) => T): T => {
      const out = make(new SharedArrayBuffer(a.byteLength));
      out.set(a);
      return out;
    };
    return {
      packed: {
        ...packed,
        types: share(packed.types, (b) => new Uint8Array(b)),
        structure: share(packed.structure, (b) => new Uint32Array(b)),
        coords: share(packed.coords, (b) => new Float64Array(b)),
      },
      boxes: Float64Array.from(this.boxes),
      structureAt: Uint32Array.from([...this.structureAt, this.structure.length]),
      coordsAt: Uint32Array.from([...this.coordsAt, this.coords.length]),
    };
  }
}

/**
 * The features whose extent meets `window` ([minx, miny, maxx, maxy], degrees, edges included), in
 * their order: the packed arrays themselves when every feature does, else a copy of their share.
 */
export function selectWindow(
  indexed: IndexedFeatures,
  window: readonly number[],
  keep?: (packed: PackedFeatures, index: number) => boolean,
): PackedFeatures {
  const { packed, boxes, structureAt, coordsAt } = indexed;
  const [w, s, e, n] = window;
  const picked: number[] = [];
  let structureLength = 0;
  let coordsLength = 0;
  for (let i = 0; i < packed.count; i++) {
    const b = i * 4;
    // NaN (no extent) fails every comparison.
    if (boxes[b] <= e && boxes[b + 2] >= w && boxes[b + 1] <= n && boxes[b + 3] >= s && (!keep || keep(packed, i))) {
      picked.push(i);
      structureLength += structureAt[i + 1] - structureAt[i];
      coordsLength += coordsAt[i + 1] - coordsAt[i];
    }
  }
  if (picked.length === packed.count) return packed;
  const types = new Uint8Array(picked.length);
  const structure = new Uint32Array(structureLength);
  const coords = new Float64Array(coordsLength);
  const columns: Record<string, unknown[]> = {};
  for (const name of Object.keys(packed.columns)) columns[name] = new Array(picked.length);
  const collections: Record<number, PackedGeometry> = {};
  let si = 0;
  let ci = 0;
  picked.forEach((i, k) => {
    types[k] = packed.types[i];
    structure.set(packed.structure.subarray(structureAt[i], structureAt[i + 1]), si);
    si += structureAt[i + 1] - structureAt[i];
    coords.set(packed.coords.subarray(coordsAt[i], coordsAt[i + 1]), ci);
    ci += coordsAt[i + 1] - coordsAt[i];
    for (const name in columns) columns[name][k] = packed.columns[name][i];
    if (i in packed.collections) collections[k] = packed.collections[i];
  });
  return { count: picked.length, types, structure, coords, columns, collections };
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
  const reader = new PackedReader(packed);
  for (let i = 0; i < packed.count; i++) {
    yield { geometry: reader.geometry(), properties: reader.properties(), parts: reader.parts(xy) };
    reader.next();
  }
}

/**
 * Reads packed features one after the other without building objects it is not asked for: the
 * renderer asks for a feature's geometry type and property values (what the style reads), and
 * traces polygons straight from the coordinates; `parts` builds the pixel parts of the others.
 * `next` moves to the following feature.
 */
export class PackedReader {
  /** The current feature. */
  index = 0;
  /** Where the current feature's structure and coordinates start. */
  private si = 0;
  private ci = 0;
  private readonly names: string[];

  constructor(readonly packed: PackedFeatures) {
    this.names = Object.keys(packed.columns);
  }

  /** The current feature's geometry type ('' for none). */
  type(): (typeof TYPES)[number] {
    return TYPES[this.packed.types[this.index]];
  }

  /** What evaluateStyle reads of the geometry: its type (a collection as it is); null for none. */
  geometry(): PackedGeometry {
    const type = this.type();
    if (type === 'GeometryCollection') return this.packed.collections[this.index] ?? null;
    return type ? { type } : null;
  }

  /** The current feature's packed property values (those the style reads; missing ones left out). */
  properties(): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (const name of this.names) {
      const v = this.packed.columns[name][this.index];
      if (v !== undefined) properties[name] = v;
    }
    return properties;
  }

  /**
   * A key that is equal for two features exactly when evaluateStyle sees the same in both (their
   * geometry type and property values); null for collections (their kind is their first member's).
   */
  styleKey(): string | null {
    const code = this.packed.types[this.index];
    if (TYPES[code] === 'GeometryCollection') return null;
    let key = String(code);
    for (const name of this.names) {
      const v = this.packed.columns[name][this.index];
      key += v === undefined ? '\u0000' : `\u0000j${JSON.stringify(v)}`;
    }
    return key;
  }

  /** The current feature's pixel parts. */
  parts(xy: Xy): PixelParts {
    const { structure: s, coords } = this.packed;
    let si = this.si;
    let ci = this.ci;
    const positions = (): number[][] => {
      const n = s[si++];
      const out: number[][] = new Array(n);
      for (let k = 0; k < n; k++, ci += 2) out[k] = xy(coords[ci], coords[ci + 1]);
      return out;
    };
    const type = this.type();
    const parts: PixelParts = { points: [], lines: [], polygons: [] };
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
    } else if (type === 'GeometryCollection') Object.assign(parts, geometryParts(this.geometry(), xy));
    return parts;
  }

  /**
   * Calls `each` for every polygon of the current (Polygon or MultiPolygon) feature with a function
   * that traces its rings, each closed, in pixels (x = (x - x0) * sx, y = (y0 - y) * sy) onto `g`
   * (what drawing `parts` polygon by polygon does, without building them), and the polygon's extent
   * in pixels [left, top, right, bottom] (empty, left > right, when it has no ring of 2 positions).
   */
  eachPolygon(
    g: { moveTo(x: number, y: number): void; lineTo(x: number, y: number): void; closePath(): void },
    x0: number,
    sx: number,
    y0: number,
    sy: number,
    each: (trace: () => void, box: [number, number, number, number]) => void,
  ): void {
    const { structure: s, coords } = this.packed;
    let si = this.si;
    let ci = this.ci;
    const n = s[si++];
    for (let k = 0; k < n; k++) {
      const rings = s[si++];
      const from = si;
      const fromCoords = ci;
      // Past this polygon, whether `each` traces it or not; its extent on the way.
      const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let r = 0; r < rings; r++) {
        const positions = s[si++];
        if (positions >= 2)
          for (let q = 0; q < positions; q++) {
            const x = (coords[ci + 2 * q] - x0) * sx;
            const y = (y0 - coords[ci + 2 * q + 1]) * sy;
            if (x < box[0]) box[0] = x;
            if (x > box[2]) box[2] = x;
            if (y < box[1]) box[1] = y;
            if (y > box[3]) box[3] = y;
          }
        ci += 2 * positions;
      }
      each(() => {
        let c = fromCoords;
        for (let r = 0; r < rings; r++) {
          const positions = s[from + r];
          if (positions >= 2) {
            g.moveTo((coords[c] - x0) * sx, (y0 - coords[c + 1]) * sy);
            for (let q = 1; q < positions; q++) g.lineTo((coords[c + 2 * q] - x0) * sx, (y0 - coords[c + 2 * q + 1]) * sy);
            g.closePath();
          }
          c += 2 * positions;
        }
      }, box);
    }
  }

  /** Moves to the next feature. */
  next(): void {
    const s = this.packed.structure;
    const type = this.type();
    if (type === 'Point' || type === 'MultiPoint') this.ci += 2 * s[this.si++];
    else if (type === 'LineString' || type === 'MultiLineString') {
      const n = s[this.si++];
      for (let k = 0; k < n; k++) this.ci += 2 * s[this.si++];
    } else if (type === 'Polygon' || type === 'MultiPolygon') {
      const n = s[this.si++];
      for (let k = 0; k < n; k++) {
        const rings = s[this.si++];
        for (let r = 0; r < rings; r++) this.ci += 2 * s[this.si++];
      }
    }
    this.index++;
  }
}

/** The properties of a packed feature that `names` lists (those its columns hold). */
export function packedProperties(packed: PackedFeatures, index: number, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (packed.columns[name]) out[name] = packed.columns[name][index];
  return out;
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
