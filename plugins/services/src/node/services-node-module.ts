import {
  BlobReferenceContribution,
  definePlugin,
  EntityContribution,
  StartupHookContribution,
  ResourceExtensionContribution,
  NodeTranslationContribution,
  ServiceEndpointContribution,
} from '@werkbank/sdk/node';
import { ServicesServices } from './services-services';
import { PublishedLayers } from './published-layers';
import { GeojsonEndpoint } from './geojson-endpoint';
import { OapifEndpoint } from './oapif-endpoint';
import { OapifItems } from './oapif-items';
import { WmsEndpoint } from './wms/wms-endpoint';
import { MetalayerWms } from './wms/wms-metalayer';
import { StyleImages } from './wms/style-images';
import { MapGeometryCache } from './wms/map-geometry-cache';
import { WfsEndpoint } from './wfs-endpoint';
import { FeatureSchemas } from './feature-schemas';
import { ExternalMaps } from './external-maps';
import { ExternalWmsInfo } from './external-wms-info';
import { WmtsEndpoint } from './wmts/wmts-endpoint';
import { TileCache } from './tile-cache';
import { tileCacheBlobReferences, tileCacheEntities, tileCacheOfDeletedLayers } from './tile-cache-migration';
import { OgcTilesEndpoint } from './ogc-tiles-endpoint';
import { VectorTileService } from './vector-tile-service';
import { PublicationMemo } from './publication-memo';
import { PublicationMemoStartup } from './publication-memo-startup';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

export default definePlugin((ctx) => {
  ctx.bind(ServicesServices).toSelf().inSingletonScope();
  ctx.bind(PublishedLayers).toSelf().inSingletonScope();
  ctx.bind(FeatureSchemas).toSelf().inSingletonScope();
  ctx.contribute(NodeTranslationContribution, {
    registerTranslations: (registry) => registry.add({ id: 'services.server-translations', namespace: 'services', de, en }),
  });
  ctx.contribute(ServiceEndpointContribution, GeojsonEndpoint);
  ctx.bind(OapifItems).toSelf().inSingletonScope();
  ctx.contribute(ServiceEndpointContribution, OapifEndpoint);
  ctx.bind(MetalayerWms).toSelf().inSingletonScope();
  ctx.bind(StyleImages).toSelf().inSingletonScope();
  ctx.contribute(ServiceEndpointContribution, WmsEndpoint);
  ctx.contribute(ServiceEndpointContribution, WfsEndpoint);
  // external_map and mapproxy layers: remote maps through the guarded fetcher (mapproxy: in the tile cache).
  ctx.bind(ExternalMaps).toSelf().inSingletonScope();
  ctx.bind(ExternalWmsInfo).toSelf().inSingletonScope();
  // The tile cache of every tiled service (WMTS, vector tiles, mapproxy, metalayer composites).
  ctx.bind(TileCache).toSelf().inSingletonScope();
  ctx.contribute(EntityContribution, tileCacheEntities);
  ctx.contribute(BlobReferenceContribution, tileCacheBlobReferences);
  ctx.contribute(ResourceExtensionContribution, tileCacheOfDeletedLayers);
  ctx.contribute(ServiceEndpointContribution, WmtsEndpoint);
  // OGC API – Tiles: vector tiles cached per publication.
  ctx.bind(VectorTileService).toSelf().inSingletonScope();
  ctx.bind(PublicationMemo).toSelf().inSingletonScope();
  ctx.bind(MapGeometryCache).toSelf().inSingletonScope();
  ctx.contribute(StartupHookContribution, PublicationMemoStartup);
  ctx.contribute(ServiceEndpointContribution, OgcTilesEndpoint);
});
