import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

const KINDS = ['wald', 'wiese', 'acker', 'siedlung', 'wasser'];

/**
 * The polygons the spatial benches share (bench/extent, bench/services, bench/services-tiles):
 * `count` small squares on a grid over lon 5…15, lat 47…55, each with four properties (id, name,
 * kind, area), as GeoJSON features.
 */
export class PolygonGrid {
  /** Squares per row and column. */
  readonly side: number;
  /** Grid spacing in degrees. */
  readonly dx: number;
  readonly dy: number;

  constructor(readonly count: number) {
    this.side = Math.ceil(Math.sqrt(count));
    this.dx = 10 / this.side;
    this.dy = 8 / this.side;
  }

  /** Square `i` (also beyond `count`, for features added later). */
  feature(i: number): Record<string, unknown> {
    const x = 5 + (i % this.side) * this.dx;
    const y = 47 + Math.floor(i / this.side) * this.dy;
    const d = this.dx * 0.6;
    const e = this.dy * 0.6;
    const r = (n: number) => Math.round(n * 1e6) / 1e6;
    return {
      type: 'Feature',
      properties: { id: i, name: `fläche ${i}`, kind: KINDS[i % KINDS.length], area: ((i * 7919) % 100_000) / 100 },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [r(x), r(y)],
            [r(x + d), r(y)],
            [r(x + d), r(y + e)],
            [r(x), r(y + e)],
            [r(x), r(y)],
          ],
        ],
      },
    };
  }

  /** Every square as feature datums (`{feature}`), `size` at a time, for DepotAccess.writeStream. */
  async *datumBatches(size = 5000): AsyncGenerator<Array<{ feature: Record<string, unknown> }>> {
    for (let i = 0; i < this.count; i += size)
      yield Array.from({ length: Math.min(size, this.count - i) }, (_, j) => ({ feature: this.feature(i + j) }));
  }

  /** Writes every square as a GeoJSON FeatureCollection (what ogr2ogr loads into PostGIS). */
  async writeGeoJson(path: string): Promise<void> {
    const out = createWriteStream(path);
    out.write('{"type":"FeatureCollection","features":[\n');
    for (let i = 0; i < this.count; i++) {
      if (!out.write(`${i ? ',\n' : ''}${JSON.stringify(this.feature(i))}`)) await once(out, 'drain');
    }
    out.end('\n]}\n');
    await once(out, 'finish');
  }
}
