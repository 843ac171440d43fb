import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { featureDatum } from './geojson-validate';
import { crsMember, knownCrs, WGS84 } from '../reproject/feature-crs';
import { CHUNK, failure, itemsOf, textParam, yieldToLoop } from './vector-params';

/**
 * `geojson.export`: features as the text of one GeoJSON FeatureCollection (RFC 7946), both as the
 * text output `geojson` and as a downloadable file (`file`). The engine writes only the outputs
 * that are linked but cannot tell a function which ones they are, so both are produced from the
 * one text (the file costs one blob write, no second serialisation). Each feature is checked (a
 * failure names its number); the text is built in parts, so a long frame is not one growing string
 * until the end.
 */
export const geojsonExport: FunctionDescriptor = {
  id: 'geojson.export',
  version: '1',
  verbose_name: { de: 'GeoJSON exportieren', en: 'Export GeoJSON' },
  doc: {
    de:
      'Schreibt Features als Text einer GeoJSON-FeatureCollection (RFC 7946). Koordinaten werden unverändert ' +
      'übernommen; GeoJSON erwartet WGS 84 (EPSG:4326, Länge/Breite). Features in einem anderen System erhalten ' +
      'das crs-Element von GeoJSON 2008 (wie GDAL es schreibt); projizieren Sie sie für andere Programme vorher um. ' +
      'Ein Feature ohne Geometrie wird mit geometry: null geschrieben. Ausgänge: geojson – der Text; file – derselbe ' +
      'Text als Datei zum Herunterladen (name – Dateiname, Standard: features.geojson).',
    en:
      'Writes features as the text of a GeoJSON FeatureCollection (RFC 7946). Coordinates are taken unchanged; ' +
      'GeoJSON expects WGS 84 (EPSG:4326, longitude/latitude). Features in another CRS get GeoJSON 2008’s crs ' +
      'member (as GDAL writes it); reproject them first for other programs. ' +
      'A feature without geometry is written with geometry: null. Outputs: geojson – the text; file – the same text ' +
      'as a file to download (name – the file name, default: features.geojson).',
  },
  inputs: [
    { name: 'features', content_type: 'feature' },
    { name: 'name', content_type: 'string', is_optional: true, default_value: { value: 'features.geojson' } },
  ],
  outputs: [
    { name: 'geojson', content_type: 'string' },
    { name: 'file', content_type: 'file' },
  ],
  run: async (inputs, ctx) => {
    const name = textParam(inputs, 'name', 'features.geojson') || 'features.geojson';
    const items = itemsOf(inputs, 'features');
    const parts: string[] = [];
    for (const [i, item] of items.entries()) {
      if (!item || typeof item !== 'object' || !('feature' in item))
        throw failure('feature_invalid', { index: i, type: '–', source: 'features' });
      parts.push(JSON.stringify(checked(item.feature, i)));
      if ((i + 1) % CHUNK === 0) {
        ctx.progress((i + 1) / items.length);
        await yieldToLoop(ctx);
      }
    }
    // Data in another CRS than WGS 84 says so with GeoJSON 2008's crs member, as GDAL writes it (decision 0035).
    const crs = knownCrs(items, 'features');
    const member = crs === WGS84 ? '' : `"crs":${JSON.stringify(crsMember(crs))},`;
    const geojson = `{"type":"FeatureCollection",${member}"features":[${parts.join(',')}]}`;
    const file = await ctx.storeFile(geojson, { name, mime_type: 'application/geo+json' });
    ctx.progress(1);
    return { geojson: [{ value: geojson }], file: [file] };
  },
};

/** The feature checked like an imported one; a failure names the frame `features` as its source. */
export function checked(feature: unknown, index: number): unknown {
  try {
    return featureDatum(feature, index).feature;
  } catch (e) {
    const params = (e as { params?: Record<string, unknown> }).params;
    if (params && typeof params === 'object') params.source = 'features';
    throw e;
  }
}
