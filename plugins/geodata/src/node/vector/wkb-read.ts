/** A GeoJSON geometry as the WKB reader returns it. */
export type WkbGeometry =
  | { type: 'Point' | 'MultiPoint' | 'LineString' | 'MultiLineString' | 'Polygon' | 'MultiPolygon'; coordinates: unknown }
  | { type: 'GeometryCollection'; geometries: WkbGeometry[] };

const TYPES = [
  '',
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
] as const;

/** Deepest nesting of GeometryCollections accepted (a bound for hostile input). */
const MAX_DEPTH = 32;

/**
 * Reads Well-Known Binary (OGC Simple Features / ISO SQL/MM; decision 0022) into a GeoJSON
 * geometry: Point, LineString, Polygon, their Multi* forms and GeometryCollection, each in XY, Z
 * (1000+ or the EWKB 0x80000000 flag), M (2000+, 0x40000000) and ZM (3000+). Z is kept as the
 * third value, M is dropped (GeoJSON has no measures). An empty point (NaN coordinates) reads as
 * null at the top and is left out of a Multi*. Throws an Error saying what is broken for
 * truncated input, an unknown type, counts larger than the bytes left, or trailing bytes.
 */
export function readWkb(bytes: Uint8Array): WkbGeometry | null {
  const reader = new WkbReader(bytes);
  const geometry = reader.geometry(0);
  if (reader.offset !== bytes.length) throw new Error(`${bytes.length - reader.offset} bytes after the geometry`);
  return geometry;
}

class WkbReader {
  offset = 0;
  private readonly view: DataView;
  private little = true;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  geometry(depth: number): WkbGeometry | null {
    if (depth > MAX_DEPTH) throw new Error('geometry collections nested too deep');
    this.need(5);
    const order = this.view.getUint8(this.offset++);
    if (order > 1) throw new Error(`byte order ${order} is neither 0 nor 1`);
    this.little = order === 1;
    const raw = this.uint32();
    const flagZ = (raw & 0x80000000) !== 0;
    const flagM = (raw & 0x40000000) !== 0;
    const code = raw & 0x0fffffff;
    const base = code % 1000;
    const iso = Math.floor(code / 1000);
    if (!TYPES[base] || iso > 3) throw new Error(`unknown geometry type ${raw}`);
    const hasZ = flagZ || iso === 1 || iso === 3;
    const dims = 2 + (hasZ ? 1 : 0) + (flagM || iso === 2 || iso === 3 ? 1 : 0);
    const type = TYPES[base];
    switch (type) {
      case 'Point': {
        const p = this.position(dims, hasZ);
        return p.some(Number.isNaN) ? null : { type, coordinates: p };
      }
      case 'LineString':
        return { type, coordinates: this.positions(dims, hasZ) };
      case 'Polygon':
        return { type, coordinates: this.rings(dims, hasZ) };
      default:
        return this.collection(type, depth);
    }
  }

  private collection(type: 'MultiPoint' | 'MultiLineString' | 'MultiPolygon' | 'GeometryCollection', depth: number): WkbGeometry {
    const count = this.count(5);
    const parts: WkbGeometry[] = [];
    const expected = type === 'GeometryCollection' ? undefined : type.slice(5);
    for (let i = 0; i < count; i++) {
      const part = this.geometry(depth + 1);
      if (part && expected && part.type !== expected) throw new Error(`a ${type} holds a ${part.type}`);
      if (part) parts.push(part);
    }
    if (type === 'GeometryCollection') return { type, geometries: parts };
    return { type, coordinates: parts.map((p) => (p as { coordinates: unknown }).coordinates) };
  }

  private rings(dims: number, hasZ: boolean): number[][][] {
    const count = this.count(4);
    const rings: number[][][] = [];
    for (let i = 0; i < count; i++) rings.push(this.positions(dims, hasZ));
    return rings;
  }

  private positions(dims: number, hasZ: boolean): number[][] {
    const count = this.count(8 * dims);
    const positions: number[][] = [];
    for (let i = 0; i < count; i++) positions.push(this.position(dims, hasZ));
    return positions;
  }

  private position(dims: number, hasZ: boolean): number[] {
    this.need(8 * dims);
    const values: number[] = [];
    for (let d = 0; d < dims; d++) values.push(this.view.getFloat64(this.offset + 8 * d, this.little));
    this.offset += 8 * dims;
    return hasZ ? values.slice(0, 3) : values.slice(0, 2);
  }

  /** A count of parts that each take at least `minSize` bytes: refused when the bytes left cannot hold them. */
  private count(minSize: number): number {
    const n = this.uint32();
    if (n * minSize > this.bytes.length - this.offset) throw new Error(`${n} parts do not fit in the bytes left`);
    return n;
  }

  private uint32(): number {
    this.need(4);
    const value = this.view.getUint32(this.offset, this.little);
    this.offset += 4;
    return value;
  }

  private need(n: number): void {
    if (this.offset + n > this.bytes.length) throw new Error(`the geometry ends after ${this.bytes.length} bytes`);
  }
}
