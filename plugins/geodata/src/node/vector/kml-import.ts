import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { importFiles } from './file-import';
import { MAX_KML, readKml } from './kml-read';
import { settingPorts, vectorSettings } from './vector-settings';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** `kml.import`: the placemarks of KML files and KMZ archives as features (spec 001 §3.4 settings). */
export function kmlImport(files: FileAccess): FunctionDescriptor {
  return {
    id: 'kml.import',
    version: '1',
    verbose_name: { de: 'KML importieren', en: 'Import KML' },
    doc: {
      de:
        'Liest KML-Dateien und KMZ-Archive (ZIP mit doc.kml) als Features: Placemarks mit Punkten, Linien, Flächen ' +
        'und Mehrfachgeometrien (eine MultiGeometry nur aus Flächen wird MultiPolygon, nur aus Linien MultiLineString, ' +
        'nur aus Punkten MultiPoint, gemischt GeometryCollection); Name, Beschreibung und ExtendedData werden Eigenschaften, ' +
        'Stile (Farben, Linienbreiten, Symbole) nicht. ' +
        'XML mit DOCTYPE oder Entitäten wird abgewiesen; Dateien bis 128 MiB. Einstellungen: ' +
        'encoding – Zeichenkodierung: utf-8 (Standard), windows-1252 oder iso-8859-1; layer – nur die Placemarks in einem ' +
        'Folder oder Document dieses Namens; ignore_missing_layer – fehlt er, ergibt das keine Features statt eines ' +
        'Fehlers (Standard: nein); auto_transform und crs – KML ist immer WGS 84; nur wenn crs ein anderes ' +
        'Bezugssystem angibt, wird von dort nach EPSG:4326 umprojiziert. Fehler in XML nennen Zeile und Spalte.',
      en:
        'Reads KML files and KMZ archives (a ZIP with doc.kml) as features: placemarks with points, lines, polygons ' +
        'and multi-geometries (a MultiGeometry of polygons only becomes a MultiPolygon, of lines only a MultiLineString, ' +
        'of points only a MultiPoint, a mixed one a GeometryCollection); name, description and ExtendedData become ' +
        'properties, styles (colours, line widths, icons) do not. ' +
        'XML with a DOCTYPE or entities is refused; files up to 128 MiB. Settings: ' +
        'encoding – the character encoding: utf-8 (default), windows-1252 or iso-8859-1; layer – only the placemarks ' +
        'in a Folder or Document of that name; ignore_missing_layer – when there is none, no features instead of a ' +
        'failure (default: no); auto_transform and crs – KML is always WGS 84; only when crs names another CRS are ' +
        'coordinates reprojected from it to EPSG:4326. Errors in XML name line and column.',
    },
    inputs: [
      { name: 'file', content_type: 'file' },
      ...settingPorts('encoding', 'layer', 'ignore_missing_layer', 'auto_transform', 'crs'),
    ],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const settings = vectorSettings(inputs);
      return { features: await importFiles(files, inputs, ctx, MAX_KML, (file, sub) => readKml(file.bytes, settings, sub)) };
    },
  };
}
