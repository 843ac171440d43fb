import {
  BlobReferenceContribution,
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
  ResourceExtensionContribution,
} from '@werkbank/sdk/node';
import { DepotLayers } from '@werkbank/plugin-magazine/api';
import { layersEntities, LayersResources, layersTranslations } from './layers-node-contributions';
import { LayersServices } from './layers-services';
import { LayerRoutes } from './layer-routes';
import { LayerReaderService } from './layer-reader-service';
import { LayerReader } from '../common/layers-api';
import { DepotLayersService } from './depot-layers-service';
import { layerEventsContribution } from './layer-events-extension';
import { layersBlobReferences } from './legend-blob-references';

export default definePlugin((ctx) => {
  ctx.bind(LayersServices).toSelf().inSingletonScope();
  ctx.contribute(EntityContribution, layersEntities);
  ctx.contribute(NodeTranslationContribution, layersTranslations);
  ctx.contribute(ResourceContribution, LayersResources);
  ctx.contribute(HttpRouteContribution, LayerRoutes);
  ctx.contribute(ResourceExtensionContribution, layerEventsContribution);
  ctx.contribute(BlobReferenceContribution, layersBlobReferences);
  ctx.bind(LayerReader).to(LayerReaderService).inSingletonScope();
  ctx.bind(DepotLayers).to(DepotLayersService).inSingletonScope();
});
