import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { checked } from './geojson-export';
import { writeGeoPackage, type WritableFeature } from './geopackage-write';
import { gpkgSrs } from './gpkg-srs';
import { knownCrs } from '../reproject/feature-crs';
import { CHUNK, failure, itemsOf, textParam, yieldToLoop } from './vector-params';

/** Prefixes of the tables GeoPackage and SQLite reserve: a layer may not be named like them. */
const RESERVED = /^(gpkg_|rtree_|sqlite_)/i;

/** `geopackage.export`: features as a GeoPackage file with one layer in the CRS the features are in. */
export const geopackageExport: FunctionDescriptor = {
  id: 'geopackage.export',
  version: '1',
  verbose_name: { de: 'GeoPackage exportieren', en: 'Export GeoPackage' },
  doc: {
    de:
      'Schreibt Features als GeoPackage-Datei (OGC GeoPackage 1.3) mit einer Ebene im Koordinatenreferenzsystem der ' +
      'Features (ohne Angabe WGS 84, EPSG:4326). Der Geometrietyp der Ebene folgt den Daten (GEOMETRY bei gemischten Typen), ' +
      'jede Eigenschaft wird eine Spalte, typisiert nach ihren Werten (INTEGER, REAL, BOOLEAN, sonst TEXT; Objekte und ' +
      'Listen als JSON-Text). Ganzzahlige, eindeutige ids werden zum Primärschlüssel fid. Einstellungen: layer – Name ' +
      'der Ebene (Standard: features); name – Dateiname (Standard: features.gpkg).',
    en:
      'Writes features as a GeoPackage file (OGC GeoPackage 1.3) with one layer in the coordinate reference system of ' +
      'the features (WGS 84, EPSG:4326, when they name none). The layer’s geometry type follows the data (GEOMETRY for mixed types), each property becomes a ' +
      'column typed by its values (INTEGER, REAL, BOOLEAN, else TEXT; objects and lists as JSON text). Distinct ' +
      'integer ids become the primary key fid. Settings: layer – the name of the layer (default: features); ' +
      'name – the file name (default: features.gpkg).',
  },
  inputs: [
    { name: 'features', content_type: 'feature' },
    { name: 'layer', content_type: 'string', is_optional: true, default_value: { value: 'features' } },
    { name: 'name', content_type: 'string', is_optional: true, default_value: { value: 'features.gpkg' } },
  ],
  outputs: [{ name: 'file', content_type: 'file' }],
  run: async (inputs, ctx) => {
    const layer = textParam(inputs, 'layer', 'features');
    if (!layer || RESERVED.test(layer)) throw failure('invalid_parameter', { port: 'layer', value: layer });
    const name = textParam(inputs, 'name', 'features.gpkg') || 'features.gpkg';
    const items = itemsOf(inputs, 'features');
    const features: WritableFeature[] = [];
    for (const [i, item] of items.entries()) {
      if (!item || typeof item !== 'object' || !('feature' in item))
        throw failure('feature_invalid', { index: i, type: '–', source: 'features' });
      const feature = checked(item.feature, i) as WritableFeature;
      features.push({ ...feature, properties: feature.properties ?? {} });
      if ((i + 1) % CHUNK === 0) await yieldToLoop(ctx);
    }
    // The layer is in the CRS the features are in (decision 0035).
    const crs = knownCrs(items, 'features');
    const bytes = await writeGeoPackage(features, layer, ctx, await gpkgSrs(crs));
    const file = await ctx.storeFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      name,
      mime_type: 'application/geopackage+sqlite3',
    });
    ctx.log(`${name}: ${features.length} features in layer ${layer} (${crs}), ${bytes.length} bytes`);
    ctx.progress(1);
    return { file: [file] };
  },
};
