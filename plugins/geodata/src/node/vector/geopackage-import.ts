import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { importFiles } from './file-import';
import { readGeoPackage } from './geopackage-read';
import { settingPorts, vectorSettings } from './vector-settings';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** Largest GeoPackage read: sql.js holds the whole database in memory (twice while it opens). */
export const MAX_GEOPACKAGE = 512 * 1024 * 1024;

/** `geopackage.import`: the features of GeoPackage files (OGC GeoPackage 1.x), with the spec 001 §3.4 settings. */
export function geopackageImport(files: FileAccess): FunctionDescriptor {
  return {
    id: 'geopackage.import',
    version: '1',
    verbose_name: { de: 'GeoPackage importieren', en: 'Import GeoPackage' },
    doc: {
      de:
        'Liest die Feature-Tabellen von GeoPackage-Dateien (OGC GeoPackage) als Features: jede Zeile ein Feature, ' +
        'der ganzzahlige Primärschlüssel als id, die übrigen Spalten als Eigenschaften (Binärdaten werden ausgelassen). ' +
        'Die Datei wird ganz in den Speicher gelesen (SQLite in WebAssembly) und darf höchstens 512 MiB groß sein. ' +
        'Einstellungen: layer – der Name der Tabelle (ohne Angabe werden alle gelesen; bei mehreren ' +
        'erhält jedes Feature die Eigenschaft layer); ignore_missing_layer – eine fehlende Ebene ergibt keine Features statt ' +
        'eines Fehlers (Standard: nein); auto_transform – nach EPSG:4326 (WGS 84) umprojizieren, wenn das Bezugssystem ' +
        'der Ebene ein anderes ist (Standard: ja); crs – das Bezugssystem der Daten, ersetzt das der Datei. ' +
        'Fehlerhafte Geometrien nennen die Nummer (ab 0) des Features.',
      en:
        'Reads the feature tables of GeoPackage files (OGC GeoPackage) as features: each row a feature, its integer ' +
        'primary key as id, the other columns as properties (binary values are left out). The file is read into memory ' +
        'whole (SQLite in WebAssembly) and may be at most 512 MiB. Settings: layer – the name of the ' +
        'table (without one all are read; with several each feature gets the property layer); ignore_missing_layer – a ' +
        'missing layer gives no features instead of a failure (default: no); auto_transform – reproject to EPSG:4326 ' +
        '(WGS 84) when the layer’s CRS is another one (default: yes); crs – the CRS of the data, replacing the file’s. ' +
        'Broken geometries name the number (from 0) of the feature.',
    },
    inputs: [{ name: 'file', content_type: 'file' }, ...settingPorts('layer', 'ignore_missing_layer', 'auto_transform', 'crs')],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const settings = vectorSettings(inputs);
      return {
        features: await importFiles(files, inputs, ctx, MAX_GEOPACKAGE, (file, sub) => readGeoPackage(file.bytes, settings, sub)),
      };
    },
  };
}
