import type { FrameItems, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { append, named, part } from '../source-items';
import { textSource } from '../tabular/csv-read';
import { geoJsonSettings } from '../vector/geojson-import';
import { readGeoJson } from '../vector/geojson-read';
import { textParam } from '../vector/vector-params';
import { gmlFeatureItems, reprojectItems, type CrsSettings } from './gml-axis';
import { GML_MAX_FEATURES } from './gml-import';
import { readGml } from './gml-read';
import { fetchText, PAGE_BUDGET, queryParam, withParams, type Net } from './service-fetch';
import { servicesFailure } from './services-failure';
import { countParam, serviceUrl } from './services-params';
import { chooseFeatureTypes, wfsBase, wfsCapabilities, type WfsCapabilities, type WfsFeatureType } from './wfs-capabilities';

/** Most features one wfs.import reads unless max_features says otherwise. */
export const WFS_MAX_FEATURES = 1_000_000;
/** Page size when the service announces paging but no CountDefault. */
export const WFS_PAGE_SIZE = 1000;

/** What one GetFeature series needs. */
interface FeatureRequest {
  caps: WfsCapabilities;
  type: WfsFeatureType;
  settings: CrsSettings;
  /** Features still allowed (max_features or WFS_MAX_FEATURES minus those read). */
  limit: number;
  /** True when `limit` comes from max_features (reaching it ends reading without a failure). */
  limited: boolean;
  /** The GeoJSON outputFormat when the service offers one, else '' (GML 3, the version's default). */
  json: string;
}

/**
 * `wfs.import`: the features of a Web Feature Service (WFS 2.0 and 1.1) through GetCapabilities
 * and paged GetFeature requests, as GeoJSON when offered, else GML 3.
 */
export function wfsImport(net: () => Net): FunctionDescriptor {
  return {
    id: 'wfs.import',
    version: '1',
    verbose_name: { de: 'WFS importieren', en: 'Import WFS' },
    doc: {
      de:
        'Liest die Features eines Web Feature Service (WFS 2.0.0, sonst 1.1.0) unter der Adresse url. Welche Feature-Typen: die im ' +
        'Parameter typeNames/typeName der Adresse, sonst die in typename (mehrere mit Komma), sonst alle des Dienstes. ' +
        'Die Features werden seitenweise abgerufen (startIndex und count bzw. maxFeatures, wenn der Dienst Paging anbietet), ' +
        'als GeoJSON, wenn der Dienst es anbietet, sonst als GML 3. max_features begrenzt die Zahl (ohne Angabe höchstens 1 000 000). ' +
        'auto_transform (Standard: ja) projiziert nach EPSG:4326 um; crs ersetzt das Bezugssystem der Antwort. ' +
        'Je Anfrage höchstens 64 MiB und 2 Minuten. Fehlermeldungen des Dienstes (ExceptionReport) werden mit ihrem Text gemeldet.',
      en:
        'Reads the features of a Web Feature Service (WFS 2.0.0, else 1.1.0) at the address url. Which feature types: those in the ' +
        "address's typeNames/typeName parameter, else those in typename (several separated by commas), else all the service offers. " +
        'Features are requested page by page (startIndex and count or maxFeatures when the service offers paging), ' +
        'as GeoJSON when the service offers it, else as GML 3. max_features limits their number (unset: at most 1,000,000). ' +
        "auto_transform (default: yes) reprojects to EPSG:4326; crs replaces the answer's reference system. " +
        'At most 64 MiB and 2 minutes per request. Errors of the service (ExceptionReport) are reported with their text.',
    },
    inputs: [
      { name: 'url', content_type: 'string' },
      { name: 'typename', content_type: 'string', is_optional: true },
      { name: 'crs', content_type: 'string', is_optional: true },
      { name: 'auto_transform', content_type: 'bool', is_optional: true, default_value: { value: true } },
      { name: 'max_features', content_type: 'int', is_optional: true },
    ],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const url = serviceUrl(inputs);
      const settings = geoJsonSettings(inputs);
      const max = countParam(inputs, 'max_features');
      const base = wfsBase(url);
      const caps = await wfsCapabilities(net(), base, ctx);
      ctx.log(`WFS ${caps.version}: ${caps.featureTypes.length} feature types, paging ${caps.paging ? 'yes' : 'no'}`);
      const named = (queryParam(url, 'typeNames') || queryParam(url, 'typeName') || textParam(inputs, 'typename'))
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const types = chooseFeatureTypes(caps, named, base);
      const json = caps.outputFormats.find((f) => /json/i.test(f)) ?? '';
      const features: FrameItems = [];
      for (const [i, type] of types.entries()) {
        const limit = (max ?? WFS_MAX_FEATURES) - features.length;
        if (limit <= 0) break;
        const request = { caps, type, settings, limit, limited: max !== undefined, json };
        append(features, await readFeatureType(net(), request, part(ctx, i, types.length), features.length));
      }
      ctx.progress(1);
      return { features };
    },
  };
}

/** All features of one feature type, page after page while pages come back full. */
async function readFeatureType(net: Net, req: FeatureRequest, ctx: FunctionRunContext, offset: number): Promise<FrameItems> {
  const v2 = req.caps.version.startsWith('2.');
  const pageSize = req.caps.paging ? Math.min(req.caps.countDefault ?? WFS_PAGE_SIZE, req.limit) : undefined;
  const features: FrameItems = [];
  let firstId: unknown;
  for (let page = 0; ; page++) {
    const want = pageSize ?? (req.limited ? req.limit : undefined);
    const url = withParams(req.caps.getFeatureUrl, {
      SERVICE: 'WFS',
      REQUEST: 'GetFeature',
      VERSION: req.caps.version,
      [v2 ? 'TYPENAMES' : 'TYPENAME']: req.type.name,
      [v2 ? 'COUNT' : 'MAXFEATURES']: want === undefined ? undefined : Math.min(want, req.limit - features.length),
      STARTINDEX: pageSize === undefined ? undefined : features.length,
      OUTPUTFORMAT: req.json || undefined,
    });
    const items = await named(readPage(net, url, req, ctx, offset + features.length), `${req.type.name} (${url})`);
    const id = (items[0]?.feature as { id?: unknown } | undefined)?.id;
    if (page > 0 && id !== undefined && id === firstId) {
      ctx.log(`${req.type.name}: the service ignores startIndex; stopping after page ${page}`);
      break;
    }
    if (page === 0) firstId = id;
    // The import's own ceiling fails rather than cutting silently; max_features just ends reading.
    const full = pageSize !== undefined && items.length === pageSize;
    if (!req.limited && (features.length + items.length > req.limit || (full && features.length + items.length >= req.limit)))
      throw servicesFailure('too_many_features', { source: req.type.name, limit: WFS_MAX_FEATURES });
    append(features, items.slice(0, req.limit - features.length));
    ctx.log(`${req.type.name}: page ${page + 1}, ${items.length} features`);
    ctx.progress(Math.min(0.95, features.length / (features.length + (pageSize ?? 1))));
    if (pageSize === undefined || items.length < Math.min(pageSize, req.limit) || features.length >= req.limit) break;
  }
  return features;
}

/** One GetFeature answer as feature datums: GeoJSON, or GML 3, or the service's exception. */
async function readPage(
  net: Net,
  url: string,
  req: FeatureRequest,
  ctx: FunctionRunContext,
  offset: number,
): Promise<FrameItems> {
  const answer = await fetchText(net, url, ctx, PAGE_BUDGET);
  if (answer.text.trimStart().startsWith('<')) {
    const gml = await readGml(answer.text, answer.url, GML_MAX_FEATURES, ctx);
    // GML without any srsName is in the feature type's default CRS.
    return gmlFeatureItems(gml, req.settings, ctx, offset, req.type.defaultCrs);
  }
  // GeoJSON without a crs member is WGS 84 (RFC 7946 §4), whatever the feature type's default.
  const content = await readGeoJson(textSource(answer.text), ctx, answer.text.length);
  return reprojectItems(content.features, content.crs, req.settings, ctx, offset);
}
