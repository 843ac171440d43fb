/** A GeoJSON geometry as the WKB writer takes it (checked before: geojson-validate). */
interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

const CODES: Record<string, number> = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
};

/** Whether any position of the geometry has a third value (a height). */
export function hasZ(geometry: Geometry): boolean {
  if (geometry.type === 'GeometryCollection') return (geometry.geometries ?? []).some(hasZ);
  const first = (function firstPosition(c: unknown): unknown {
    return Array.isArray(c) && Array.isArray(c[0]) ? firstPosition(c[0]) : c;
  })(geometry.coordinates);
  return Array.isArray(first) && first.length > 2;
}

/**
 * Little-endian ISO WKB of a GeoJSON geometry (decision 0022), in XY, or XYZ when `z` (a missing
 * height is written as 0). Values past the height are not written.
 */
export function writeWkb(geometry: Geometry, z = hasZ(geometry)): Buffer {
  const chunks: Buffer[] = [];
  const dims = z ? 3 : 2;
  const header = (type: string, count?: number) => {
    const b = Buffer.alloc(count === undefined ? 5 : 9);
    b.writeUInt8(1, 0);
    b.writeUInt32LE(CODES[type] + (z ? 1000 : 0), 1);
    if (count !== undefined) b.writeUInt32LE(count, 5);
    chunks.push(b);
  };
  const positions = (list: number[][]) => {
    const b = Buffer.alloc(4 + list.length * 8 * dims);
    b.writeUInt32LE(list.length, 0);
    list.forEach((p, i) => {
      for (let d = 0; d < dims; d++) b.writeDoubleLE(p[d] ?? 0, 4 + (i * dims + d) * 8);
    });
    chunks.push(b);
  };
  const count = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n, 0);
    chunks.push(b);
  };
  const write = (g: Geometry): void => {
    const c = g.coordinates as never;
    switch (g.type) {
      case 'Point': {
        header('Point');
        const b = Buffer.alloc(8 * dims);
        for (let d = 0; d < dims; d++) b.writeDoubleLE((c as number[])[d] ?? 0, 8 * d);
        chunks.push(b);
        return;
      }
      case 'LineString':
        header('LineString');
        return positions(c);
      case 'Polygon':
        header('Polygon');
        count((c as number[][][]).length);
        return (c as number[][][]).forEach(positions);
      case 'GeometryCollection':
        header(g.type, (g.geometries ?? []).length);
        return (g.geometries ?? []).forEach(write);
      default: {
        const single = g.type.slice(5);
        header(g.type, (c as unknown[]).length);
        return (c as unknown[]).forEach((part) => write({ type: single, coordinates: part }));
      }
    }
  };
  write(geometry);
  return Buffer.concat(chunks);
}

/** West, south, east, north of a geometry's positions; undefined when it has none. */
export function envelopeOf(geometry: Geometry): [number, number, number, number] | undefined {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number') {
      const [x, y] = c as number[];
      [box[0], box[1], box[2], box[3]] = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
    } else c.forEach(visit);
  };
  const walk = (g: Geometry): void =>
    g.type === 'GeometryCollection' ? (g.geometries ?? []).forEach(walk) : visit(g.coordinates);
  walk(geometry);
  return box[0] === Infinity ? undefined : box;
}
