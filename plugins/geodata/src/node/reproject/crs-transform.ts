import proj4 from 'proj4';
import type { ResolvedCrs } from './crs-resolver';

type Converter = { forward(p: number[]): number[] };
const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

/**
 * Transforms x, y positions (east, north; longitude, latitude in degrees) from one CRS to another
 * with proj4. Where a CRS has an installed datum grid (Gauss-Krüger with BETA2007), positions
 * inside the grid use it and others the Helmert parameters — as PROJ's cs2cs chooses. `position`
 * returns NaN values when proj4 cannot transform a position; it does not throw.
 */
export class CrsTransform {
  private readonly converters = new Map<string, Converter>();
  private readonly toWgs84: Converter | undefined;

  constructor(
    readonly from: ResolvedCrs,
    readonly to: ResolvedCrs,
  ) {
    const needsLocation = from.gridBounds || to.gridBounds;
    this.toWgs84 = needsLocation && !from.geographic ? this.converter(from.definition, WGS84) : undefined;
  }

  /** True when both CRSs are the same: positions are kept as they are. */
  get isIdentity(): boolean {
    return this.from.name === this.to.name;
  }

  position(x: number, y: number): [number, number] {
    if (this.isIdentity) return [x, y];
    let fromDef = this.from.definition;
    let toDef = this.to.definition;
    if (this.from.gridBounds || this.to.gridBounds) {
      const [lon, lat] = this.toWgs84 ? this.safe(this.toWgs84, x, y) : [x, y];
      if (inside(this.from.gridBounds, lon, lat)) fromDef = this.from.gridDefinition!;
      if (inside(this.to.gridBounds, lon, lat)) toDef = this.to.gridDefinition!;
    }
    return this.safe(this.converter(fromDef, toDef), x, y);
  }

  private safe(converter: Converter, x: number, y: number): [number, number] {
    try {
      const [u, v] = converter.forward([x, y]);
      return [u, v];
    } catch {
      return [NaN, NaN];
    }
  }

  private converter(from: string, to: string): Converter {
    const key = `${from}\n${to}`;
    let c = this.converters.get(key);
    if (!c) {
      c = proj4(from, to) as Converter;
      this.converters.set(key, c);
    }
    return c;
  }
}

function inside(bounds: [number, number, number, number] | undefined, lon: number, lat: number): boolean {
  return !!bounds && lon >= bounds[0] && lon <= bounds[2] && lat >= bounds[1] && lat <= bounds[3];
}
