import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { importFiles } from './file-import';
import { readZippedShapefile } from './shapefile-read';
import { settingPorts, vectorSettings } from './vector-settings';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** Largest zip archive read into memory. */
export const MAX_SHAPEFILE_ZIP = 512 * 1024 * 1024;

/** `shapefile.import`: the features of zipped Shapefiles (file datums), with the vector settings of spec 001 §3.4. */
export function shapefileImport(files: FileAccess): FunctionDescriptor {
  return {
    id: 'shapefile.import',
    version: '1',
    verbose_name: { de: 'Shapefile importieren', en: 'Import Shapefile' },
    doc: {
      de:
        'Liest gezippte Shapefiles (ZIP mit .shp, .dbf und meist .shx, .prj, .cpg) als Features, Datensatz für Datensatz. ' +
        'Das Archiv wird vor dem Entpacken geprüft (Pfade außerhalb des Ordners, ZIP-Bomben) und nur im Speicher entpackt; ' +
        'Archive bis 512 MiB. Einstellungen: encoding – Zeichenkodierung der Attribute: utf-8, ' +
        'windows-1252 oder iso-8859-1 (ohne Angabe die der .cpg-Datei, sonst utf-8); layer – bei mehreren Shapefiles im ' +
        'Archiv der Dateiname ohne Endung (ohne Angabe werden alle gelesen und jedes Feature erhält die Eigenschaft layer); ' +
        'ignore_missing_layer – eine fehlende Ebene ergibt keine Features statt eines Fehlers (Standard: nein); ' +
        'auto_transform – nach EPSG:4326 (WGS 84) umprojizieren, wenn das Bezugssystem aus der .prj bekannt und ein anderes ' +
        'ist (Standard: ja); crs – das Bezugssystem der Daten (z. B. EPSG:25832), ersetzt die .prj. Fehler nennen die ' +
        'Nummer (ab 0) eines fehlerhaften Datensatzes.',
      en:
        'Reads zipped Shapefiles (a ZIP with .shp, .dbf and usually .shx, .prj, .cpg) as features, record by record. ' +
        'The archive is checked before extraction (paths outside the folder, zip bombs) and extracted in memory only; ' +
        'archives up to 512 MiB. Settings: encoding – the character encoding of the attributes: utf-8, ' +
        'windows-1252 or iso-8859-1 (by default the one the .cpg file names, else utf-8); layer – with several Shapefiles ' +
        'in the archive, the file name without extension (without one all are read and each feature gets the property ' +
        'layer); ignore_missing_layer – a missing layer gives no features instead of a failure (default: no); ' +
        'auto_transform – reproject to EPSG:4326 (WGS 84) when the CRS from the .prj is known and another one ' +
        '(default: yes); crs – the CRS of the data (e.g. EPSG:25832), replacing the .prj. Errors name the number ' +
        '(from 0) of a broken record.',
    },
    inputs: [
      { name: 'file', content_type: 'file' },
      ...settingPorts('encoding', 'layer', 'ignore_missing_layer', 'auto_transform', 'crs'),
    ],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const settings = vectorSettings(inputs);
      const features = await importFiles(files, inputs, ctx, MAX_SHAPEFILE_ZIP, (file, sub) =>
        readZippedShapefile(file.bytes, settings, sub),
      );
      return { features };
    },
  };
}
