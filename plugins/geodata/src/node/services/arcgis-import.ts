import type { FrameItems, FunctionDescriptor, FunctionInputs, FunctionRunContext } from '@werkbank/sdk/node';
import { append, part } from '../source-items';
import { featureReprojector } from '../reproject/reproject-geometry';
import { esriCrs, esriToGeoJson } from './esri-json';
import { ARCGIS_MAX_FEATURES, arcgisAddress, arcgisJson, arcgisLayers, queryLayer, type ArcgisAddress } from './arcgis-query';
import { withParams, type Net } from './service-fetch';
import { countParam, serviceUrl } from './services-params';

const INPUTS = [
  { name: 'url', content_type: 'string' },
  { name: 'max_features', content_type: 'int', is_optional: true },
];

/** Reads the feature layers of a service: its description, then each layer's query pages. */
async function readFeatures(
  net: Net,
  address: ArcgisAddress,
  service: Record<string, unknown>,
  inputs: FunctionInputs,
  ctx: FunctionRunContext,
): Promise<FrameItems> {
  const max = countParam(inputs, 'max_features');
  const limit = max ?? ARCGIS_MAX_FEATURES;
  const layers = (await arcgisLayers(net, address, service, ctx)).filter((l) => {
    const feature = !l.type || l.type === 'Feature Layer';
    if (!feature) ctx.log(`skipping ${l.name || l.id}: a ${l.type}, no feature layer`);
    return feature;
  });
  const features: FrameItems = [];
  for (const [i, layer] of layers.entries()) {
    if (features.length >= limit) break;
    append(
      features,
      await queryLayer(net, address, layer, part(ctx, i, layers.length), limit - features.length, max !== undefined),
    );
  }
  return features;
}

/** `arcgis.featureserver.import`: the features of an ArcGIS FeatureServer (all layers, or the one the address names). */
export function arcgisFeatureServerImport(net: () => Net): FunctionDescriptor {
  return {
    id: 'arcgis.featureserver.import',
    version: '1',
    verbose_name: { de: 'ArcGIS-FeatureServer importieren', en: 'Import ArcGIS FeatureServer' },
    doc: {
      de:
        'Liest die Features eines ArcGIS-FeatureServers unter der Adresse url: …/FeatureServer liest alle Ebenen, ' +
        '…/FeatureServer/3 nur Ebene 3. Abgefragt wird mit query (alle Objekte, alle Felder, in WGS 84), seitenweise in Schritten ' +
        'von maxRecordCount, solange der Dienst exceededTransferLimit meldet (ohne Paging über die Objekt-IDs). GeoJSON, wenn ' +
        'der Dienst es anbietet, sonst Esri-JSON, das umgewandelt wird (Ringe im Uhrzeigersinn sind Außenringe, die anderen Löcher). ' +
        'max_features begrenzt die Zahl (ohne Angabe höchstens 1 000 000). Fehlermeldungen des Dienstes werden mit Code und Text gemeldet.',
      en:
        'Reads the features of an ArcGIS FeatureServer at the address url: …/FeatureServer reads all layers, …/FeatureServer/3 ' +
        'only layer 3. Features are queried (all objects, all fields, in WGS 84) page by page in steps of maxRecordCount while ' +
        'the service reports exceededTransferLimit (without paging by object ids). GeoJSON when the service offers it, else ' +
        'Esri JSON, converted (clockwise rings are outer rings, the others holes). max_features limits their number ' +
        '(unset: at most 1,000,000). Errors of the service are reported with code and text.',
    },
    inputs: INPUTS,
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const address = arcgisAddress(serviceUrl(inputs), 'FeatureServer');
      const service = await arcgisJson(net(), withParams(address.root, { ...address.keep, f: 'json' }), ctx);
      const features = await readFeatures(net(), address, service, inputs, ctx);
      ctx.progress(1);
      return { features };
    },
  };
}

/**
 * `arcgis.mapserver.import`: the features of an ArcGIS MapServer's feature layers (through query),
 * and for a cached service in Web Mercator its tiles as a `wmts` datum (decision 0023).
 */
export function arcgisMapServerImport(net: () => Net): FunctionDescriptor {
  return {
    id: 'arcgis.mapserver.import',
    version: '1',
    verbose_name: { de: 'ArcGIS-MapServer importieren', en: 'Import ArcGIS MapServer' },
    doc: {
      de:
        'Liest einen ArcGIS-MapServer unter der Adresse url. Ausgang features: die Features seiner Feature-Ebenen (…/MapServer alle, ' +
        '…/MapServer/3 nur Ebene 3; Gruppen- und Rasterebenen werden übersprungen), abgefragt wie beim FeatureServer mit query, ' +
        'seitenweise. Ausgang tiles: bei einem gekachelten Dienst (tileInfo) in Web Mercator ein wmts-Datum mit der Kachel-URL ' +
        '…/MapServer/tile/{z}/{y}/{x} und der Ausdehnung in WGS 84, sonst nichts. Ohne Query-Fähigkeit nur die Kacheln. ' +
        'max_features begrenzt die Zahl der Features (ohne Angabe höchstens 1 000 000).',
      en:
        'Reads an ArcGIS MapServer at the address url. Output features: the features of its feature layers (…/MapServer all, ' +
        '…/MapServer/3 only layer 3; group and raster layers are skipped), queried page by page as for a FeatureServer. ' +
        'Output tiles: for a cached service (tileInfo) in Web Mercator a wmts datum with the tile URL …/MapServer/tile/{z}/{y}/{x} ' +
        'and the extent in WGS 84, else nothing. Without the Query capability only the tiles. ' +
        'max_features limits the number of features (unset: at most 1,000,000).',
    },
    inputs: INPUTS,
    outputs: [
      { name: 'features', content_type: 'feature' },
      { name: 'tiles', content_type: 'wmts' },
    ],
    run: async (inputs, ctx) => {
      const address = arcgisAddress(serviceUrl(inputs), 'MapServer');
      const service = await arcgisJson(net(), withParams(address.root, { ...address.keep, f: 'json' }), ctx);
      const tiles = await tileDatum(address, service);
      const queryable = typeof service.capabilities !== 'string' || /query/i.test(service.capabilities);
      if (!queryable) ctx.log('the service does not offer Query: no features');
      const features = queryable ? await readFeatures(net(), address, service, inputs, ctx) : [];
      ctx.progress(1);
      return { features, tiles };
    },
  };
}

/** The wmts datum of a cached MapServer in Web Mercator ([] otherwise), its bbox the fullExtent in WGS 84. */
async function tileDatum(address: ArcgisAddress, service: Record<string, unknown>): Promise<FrameItems> {
  const tileInfo = service.tileInfo as { spatialReference?: unknown } | undefined;
  if (!tileInfo || service.singleFusedMapCache === false || esriCrs(tileInfo.spatialReference) !== 'EPSG:3857') return [];
  const token = Object.entries(address.keep).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  const tms_url = `${address.root}/tile/{z}/{y}/{x}${token.length ? `?${token.join('&')}` : ''}`;
  return [{ tms_url, bbox: await wgs84Extent(service.fullExtent ?? service.initialExtent) }];
}

/** An Esri extent as [west, south, east, north] in WGS 84 (the whole world when it is missing or unusable). */
async function wgs84Extent(extent: unknown): Promise<number[]> {
  const world = [-180, -85.0511, 180, 85.0511];
  const polygon = extent && typeof extent === 'object' ? esriToGeoJson(extent, 0) : null;
  const crs = esriCrs((extent as { spatialReference?: unknown } | undefined)?.spatialReference);
  if (!polygon || !crs) return world;
  try {
    const reproject = await featureReprojector(crs, 'EPSG:4326');
    const ring = (reproject({ type: 'Feature', geometry: polygon, properties: {} }, 0).geometry as { coordinates: number[][][] })
      .coordinates[0];
    const xs = ring.map((p) => p[0]);
    const ys = ring.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  } catch {
    return world;
  }
}
