/** Side of the cells (px) in which PolygonBatches notes what is drawn where. */
const BATCH_CELL = 4;

/**
 * Polygons (without dashes) drawn many at once with the same pixels as one by one (decision 0083,
 * "Map geometry per publication"), but for antialiasing: each call into Skia costs about as much as filling a small
 * polygon, so a map of 100,000 small polygons spends most of its time on fill and stroke calls.
 * Each polygon gets a level one above the highest of the polygons already added whose extent (with
 * half its stroke and 2 px for antialiasing, in cells of BATCH_CELL px) it meets; `flush` draws the
 * levels in order, each level's polygons of one symbolizer as one path, filled then stroked. Two
 * polygons of one level share no pixel, so the order among them does not matter, and a polygon is
 * drawn after every earlier one it may touch. The image is the same but for the antialiasing of
 * edge pixels (Skia rasterises a path of many polygons a little differently: at most 14 of 255 per
 * channel on a map of 100,000 squares). Whatever else is drawn (lines, points, dashed outlines)
 * flushes first.
 */
export class PolygonBatches<S extends { strokeWidth: number; strokeOpacity: number }> {
  private readonly cols: number;
  private readonly rows: number;
  /** Per cell the highest level drawn into it (-1: none). */
  private readonly cells: Int32Array;
  private levels: Array<Map<S, Array<() => void>>> = [];

  /** `paint` fills and strokes with a symbolizer what its `trace` traces (one path). */
  constructor(
    width: number,
    height: number,
    private readonly paint: (s: S, trace: () => void) => void,
  ) {
    this.cols = Math.ceil(width / BATCH_CELL);
    this.rows = Math.ceil(height / BATCH_CELL);
    this.cells = new Int32Array(this.cols * this.rows).fill(-1);
  }

  /** A polygon to draw with `s`: `trace` traces its rings, `box` its extent in pixels. */
  add(s: S, trace: () => void, box: [number, number, number, number]): void {
    const margin = (s.strokeWidth > 0 && s.strokeOpacity > 0 ? s.strokeWidth / 2 : 0) + 2;
    const x0 = Math.max(0, Math.floor((box[0] - margin) / BATCH_CELL));
    const x1 = Math.min(this.cols - 1, Math.floor((box[2] + margin) / BATCH_CELL));
    const y0 = Math.max(0, Math.floor((box[1] - margin) / BATCH_CELL));
    const y1 = Math.min(this.rows - 1, Math.floor((box[3] + margin) / BATCH_CELL));
    // Nothing of it on the map (or no ring to draw).
    if (!(x0 <= x1 && y0 <= y1)) return;
    let level = 0;
    for (let y = y0; y <= y1; y++)
      for (let i = y * this.cols + x0, end = y * this.cols + x1; i <= end; i++)
        if (this.cells[i] >= level) level = this.cells[i] + 1;
    for (let y = y0; y <= y1; y++) this.cells.fill(level, y * this.cols + x0, y * this.cols + x1 + 1);
    const bySymbol = (this.levels[level] ??= new Map());
    let traces = bySymbol.get(s);
    if (!traces) bySymbol.set(s, (traces = []));
    traces.push(trace);
  }

  /** Draws every polygon added, level by level. */
  flush(): void {
    if (!this.levels.length) return;
    for (const bySymbol of this.levels)
      for (const [s, traces] of bySymbol ?? [])
        this.paint(s, () => {
          for (const trace of traces) trace();
        });
    this.levels = [];
    this.cells.fill(-1);
  }
}
