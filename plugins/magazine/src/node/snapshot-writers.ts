import type { VersionRow } from './datum-store';

/**
 * A feature datum's feature as a GeoJSON Feature's text. The datum's index becomes the feature's
 * `id` when it has none of its own, so a client can address the datum (`/api/v1/datum/{id}/`).
 */
function featureText(v: VersionRow): string {
  const feature = (v.data.feature ?? { type: 'Feature', geometry: null, properties: null }) as Record<string, unknown>;
  if (feature.id !== undefined && feature.id !== null) return JSON.stringify(feature);
  // An `id` of null is none: the datum's index takes its place (not overwritten by it).
  const { type, id: _none, ...rest } = feature;
  return JSON.stringify({ type: type ?? 'Feature', id: v.datum_id, ...rest });
}

/**
 * A GeoJSON FeatureCollection written as the batches arrive (RFC 7946; one chunk per batch, never
 * the whole collection in memory).
 */
export async function* geojsonChunks(batches: AsyncIterable<VersionRow[]>): AsyncGenerator<string> {
  yield '{"type":"FeatureCollection","features":[\n';
  let first = true;
  for await (const rows of batches) {
    if (!rows.length) continue;
    yield (first ? '' : ',\n') + rows.map(featureText).join(',\n');
    first = false;
  }
  yield '\n]}\n';
}

/** Newline-delimited JSON: one datum (as `json` gives it) per line, batch by batch. */
export async function* ndjsonChunks(
  batches: AsyncIterable<VersionRow[]>,
  json: (v: VersionRow) => Record<string, unknown>,
): AsyncGenerator<string> {
  for await (const rows of batches) {
    if (rows.length) yield `${rows.map((v) => JSON.stringify(json(v))).join('\n')}\n`;
  }
}
