import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { readCsv } from '../tabular/csv-read';
import { rowFeature } from '../tabular/rows-to-features';
import { readGeoJson } from '../vector/geojson-read';
import { named } from '../source-items';
import type { DepotImportSettings, FORMATS } from './import-settings';
import { Wgs84Batches } from './wgs84-batches';
import { type OpenedFile } from '@werkbank/plugin-switchboards/api';

/**
 * Features per batch handed to the depot (the Magazine sends them in statements of its own size).
 * Small, so a batch's objects are garbage before the next young-generation collection and are not
 * promoted to the old one, where they would pile up until a full collection (decision 0075,
 * amendment of the evening).
 */
export const BATCH = 250;

/**
 * Streams the features of one opened file to `push`, batch by batch and awaited (so reading waits
 * while a batch is stored): CSV rows become features as rows.to_features makes them, GeoJSON
 * features come as geojson.import reads them; both reprojected to EPSG:4326 as the settings say.
 * Failures name the file (`source`), the line of broken text and the row or feature index.
 */
export async function streamFile(
  opened: OpenedFile,
  format: (typeof FORMATS)[number],
  settings: DepotImportSettings,
  ctx: FunctionRunContext,
  push: (features: FrameItems) => Promise<void>,
): Promise<void> {
  const source = opened.name;
  const wgs84 = new Wgs84Batches(settings, source, ctx.log);
  let next = 0;
  const take = async (features: FrameItems, declared: string | undefined) => {
    const first = next;
    next += features.length;
    await push(await wgs84.apply(features, declared, first));
  };
  if (format === 'csv') {
    const toFeatures = (rows: FrameItems) => rows.map((r, i) => rowFeature(r.value, next + i, settings.geometry));
    const sink = { size: BATCH, take: (rows: FrameItems) => take(toFeatures(rows), undefined) };
    await named(readCsv(opened.stream, settings.csv, ctx, opened.size, sink), source);
    return;
  }
  const read = async () => {
    const content = await readGeoJson(opened.stream, ctx, opened.size, { size: BATCH, take });
    wgs84.check(content.crs);
    return content.features;
  };
  await named(read(), source);
}
