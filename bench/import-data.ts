import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

/** What a generated input holds: its path, its size and the number of rows (features) in it. */
export interface Input {
  path: string;
  bytes: number;
  rows: number;
}

const KINDS = ['wald', 'wiese', 'acker', 'siedlung', 'wasser'];

/** Writes `text` and waits for the stream to drain when its buffer is full (memory stays flat). */
async function put(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

async function close(out: WriteStream): Promise<number> {
  out.end();
  await once(out, 'finish');
  return out.bytesWritten;
}

/**
 * `rows` points as comma-separated CSV `x,y,name,kind,value` (WGS 84 longitude/latitude across
 * southern Germany), the header first. Row i is always the same, so runs compare.
 */
export async function writePointsCsv(path: string, rows: number): Promise<Input> {
  const out = createWriteStream(path);
  await put(out, 'x,y,name,kind,value\n');
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const x = (7 + (i % 10_000) * 0.0005).toFixed(6);
    const y = (47.5 + Math.floor(i / 10_000) * 0.0005).toFixed(6);
    chunk += `${x},${y},punkt ${i},${KINDS[i % KINDS.length]},${((i * 7919) % 100_000) / 100}\n`;
    if (chunk.length > 1 << 16) {
      await put(out, chunk);
      chunk = '';
    }
  }
  await put(out, chunk);
  return { path, bytes: await close(out), rows };
}

/** Feature i of the GeoJSON input: a small square polygon with four properties. */
function feature(i: number): string {
  const x = 7 + (i % 10_000) * 0.0005;
  const y = 47.5 + Math.floor(i / 10_000) * 0.0005;
  const d = 0.0004;
  const ring = [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ].map(([a, b]) => `[${a.toFixed(6)},${b.toFixed(6)}]`);
  return (
    `{"type":"Feature","properties":{"id":${i},"name":"fläche ${i}","kind":"${KINDS[i % KINDS.length]}",` +
    `"area":${((i * 7919) % 100_000) / 100}},"geometry":{"type":"Polygon","coordinates":[[${ring.join(',')}]]}}`
  );
}

/**
 * A GeoJSON FeatureCollection of at least `bytes` (square polygons), one feature per line, and
 * beside it (`linesPath`) the same features one JSON text per line, for the raw COPY.
 */
export async function writePolygonsGeoJson(
  path: string,
  linesPath: string,
  bytes: number,
): Promise<{ geojson: Input; lines: Input }> {
  const out = createWriteStream(path);
  const lines = createWriteStream(linesPath);
  await put(out, '{"type":"FeatureCollection","name":"flaechen","features":[\n');
  let rows = 0;
  let written = 0;
  let chunk = '';
  let lineChunk = '';
  while (written + chunk.length < bytes) {
    const f = feature(rows);
    chunk += `${rows ? ',\n' : ''}${f}`;
    lineChunk += `${f}\n`;
    rows++;
    if (chunk.length > 1 << 16) {
      written += Buffer.byteLength(chunk);
      await put(out, chunk);
      await put(lines, lineChunk);
      chunk = '';
      lineChunk = '';
    }
  }
  await put(out, `${chunk}\n]}\n`);
  await put(lines, lineChunk);
  return {
    geojson: { path, bytes: await close(out), rows },
    lines: { path: linesPath, bytes: await close(lines), rows },
  };
}
