import { typeName, type FunctionInfo } from '../../common/switchboard-types';

/** The import operations of spec 001 §7, chosen by the kind of address. */
export const IMPORT_FUNCTIONS = {
  featureserver: 'arcgis.featureserver.import',
  mapserver: 'arcgis.mapserver.import',
  dataset: 'file.urls_from_dataset',
  wfs: 'wfs.import',
  wms: 'wms.import',
  wmts: 'wmts.import',
  download: 'file.download',
  local: 'file.import',
} as const;

export type ImportSource = keyof typeof IMPORT_FUNCTIONS;

/** Why an address has no import function: nothing typed, not an address, a local path without the right, another scheme. */
export type ImportProblem = 'empty' | 'invalid' | 'local_not_allowed' | 'unsupported_scheme';

export type ImportPick =
  | { func: string; source: ImportSource; /** the URL, or for a local path the path */ value: string }
  | { func: null; problem: ImportProblem };

/** `name` as a word of a path segment or parameter: `wfs`, `HH_WFS_Verkehr`, `WFSServer`. */
const word = (names: string) => new RegExp(`(^|[^a-z])(${names})([^a-z]|$)`);
const WMTS = word('wmts|wmtsserver|wmtscapabilities');
const WFS = word('wfs|wfsserver');
const WMS = word('wms|wmsserver');
const DATASET = word('data(set)?feeds?|datasets?|servicefeed');
/** Last path segments that are a data file to download, even inside a dataset folder. */
const DATA_FILE = /\.(zip|csv|tsv|geojson|gpkg|shp|dbf|tiff?|xlsx?|ods|kml|kmz|gml|gpx|las|laz|parquet|txt|pdf|png|jpe?g)$/;

function pick(source: ImportSource, value: string): ImportPick {
  return { func: IMPORT_FUNCTIONS[source], source, value };
}

/**
 * The import function for an address typed into the insert dialog's url tab (spec 001 §7): an
 * OGC service by its `service` parameter or a path word (WMTS before WFS and WMS, so an ArcGIS
 * `MapServer/WMTS` is a WMTS); an ArcGIS FeatureServer or MapServer; a datafeed or dataset listing;
 * any other http(s) address is downloaded. A local path (starting with '/', or a file: URL) is
 * imported only with `allowLocal`. Pure: no calls, no state.
 */
export function pickImportFunction(raw: string, { allowLocal }: { allowLocal: boolean }): ImportPick {
  const text = raw.trim();
  if (!text) return { func: null, problem: 'empty' };
  const isFileUrl = /^file:\/\//i.test(text);
  if ((text.startsWith('/') && !text.startsWith('//')) || isFileUrl) {
    if (!allowLocal) return { func: null, problem: 'local_not_allowed' };
    return pick('local', isFileUrl ? decodeURIComponent(new URL(text).pathname) : text);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { func: null, problem: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { func: null, problem: 'unsupported_scheme' };
  const service = [...url.searchParams].find(([k]) => k.toLowerCase() === 'service')?.[1].toLowerCase() ?? '';
  const segments = url.pathname.toLowerCase().split('/').filter(Boolean);
  const has = (re: RegExp) => segments.some((s) => re.test(s));
  if (service === 'wmts' || has(WMTS)) return pick('wmts', text);
  if (service === 'wfs' || has(WFS)) return pick('wfs', text);
  if (service === 'wms' || has(WMS)) return pick('wms', text);
  if (segments.includes('featureserver')) return pick('featureserver', text);
  if (segments.includes('mapserver')) return pick('mapserver', text);
  const last = segments[segments.length - 1] ?? '';
  if (!DATA_FILE.test(last) && (has(DATASET) || last.endsWith('.atom'))) return pick('dataset', text);
  return pick('download', text);
}

/**
 * The node parameters for a pick: the address goes into the function's input `url` (`path` for
 * a local import), or its first string input when it names them otherwise; as datum fields.
 */
export function importParams(choice: Extract<ImportPick, { func: string }>, fn?: FunctionInfo): Record<string, unknown> {
  const wanted = choice.source === 'local' ? 'path' : 'url';
  const inputs = fn?.inputs ?? [];
  const port = inputs.find((p) => p.name === wanted)?.name ?? inputs.find((p) => typeName(p.content_type) === 'string')?.name;
  return { [port ?? wanted]: { value: choice.value } };
}
