import type { FunctionInputs, PortDescriptor } from '@werkbank/sdk/node';
import { csvImport, csvReadSettings } from '../tabular/csv-import';
import type { CsvReadSettings } from '../tabular/csv-read';
import { rowsToFeaturesFunction, type GeometryColumns } from '../tabular/rows-to-features';
import { boolParam, failure as tabularFailure, paramOf, textParam } from '../tabular/tabular-params';
import { failure } from './depot-import-failure';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

export const FORMATS = ['csv', 'geojson'] as const;
export const MODES = ['replace', 'append'] as const;

/** What `depot.import_file` is told: the format, how to write, and the settings of each format. */
export interface DepotImportSettings {
  /** csv or geojson; '' = told by each file's name. */
  format: '' | (typeof FORMATS)[number];
  mode: (typeof MODES)[number];
  /** The settings of csv.import (spec 001 §3.4). */
  csv: CsvReadSettings;
  /** Where a CSV row's geometry comes from, as rows.to_features takes it. */
  geometry: GeometryColumns;
  /** Reproject to EPSG:4326 when the data's CRS is known and another one (spec 001 §3.4). */
  auto_transform: boolean;
  /** The CRS of the data; replaces a GeoJSON crs member. The only way to give a CSV's CRS. */
  crs: string;
}

/** The settings from the parameter ports, with their defaults; a failure for a wrong value. */
export function depotImportSettings(inputs: FunctionInputs): DepotImportSettings {
  const wkt = paramOf(inputs, 'wkt', '');
  if (typeof wkt !== 'string') throw tabularFailure('invalid_parameter', { port: 'wkt', value: String(wkt) });
  const crs = paramOf(inputs, 'crs', '');
  if (typeof crs !== 'string') throw tabularFailure('invalid_parameter', { port: 'crs', value: String(crs) });
  return {
    format: textParam(inputs, 'format', '', ['', ...FORMATS]) as DepotImportSettings['format'],
    mode: textParam(inputs, 'mode', 'replace', MODES) as DepotImportSettings['mode'],
    csv: csvReadSettings(inputs),
    geometry: { x: textParam(inputs, 'x', 'x'), y: textParam(inputs, 'y', 'y'), wkt: wkt.trim() || undefined },
    auto_transform: boolParam(inputs, 'auto_transform', true),
    crs: crs.trim(),
  };
}

/**
 * The input ports: file, depot, format and mode, then the settings ports of csv.import and
 * rows.to_features (taken from those functions, so they stay the same), auto_transform and crs.
 */
export function depotImportPorts(files: FileAccess): PortDescriptor[] {
  const csvSettings = csvImport(files).inputs.filter((p) => p.name !== 'file' && p.name !== 'text');
  // rows.to_features's own crs is the one below (it was offered twice).
  const columns = rowsToFeaturesFunction.inputs.filter((p) => p.name !== 'rows' && p.name !== 'crs');
  return [
    { name: 'file', content_type: 'file' },
    { name: 'depot', content_type: 'depot' },
    { name: 'format', content_type: 'string', is_optional: true },
    { name: 'mode', content_type: 'string', is_optional: true, default_value: { value: 'replace' } },
    ...csvSettings,
    ...columns,
    { name: 'auto_transform', content_type: 'bool', is_optional: true, default_value: { value: true } },
    { name: 'crs', content_type: 'string', is_optional: true },
  ];
}

/** The format of a file: the format setting, else told by its name (.csv/.txt, .geojson/.json). */
export function formatOf(settings: DepotImportSettings, name: string): (typeof FORMATS)[number] {
  if (settings.format) return settings.format;
  if (/\.(csv|txt|tsv)$/i.test(name)) return 'csv';
  if (/\.(geo)?json$/i.test(name)) return 'geojson';
  throw failure('unknown_format', { source: name });
}
