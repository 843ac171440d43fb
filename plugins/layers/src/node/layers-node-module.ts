import {
  BlobReferenceContribution,
  DatumTypeContribution,
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
  ResourceExtensionContribution,
} from '@werkbank/sdk/node';
import { DatumWriteGuardContribution, DepotLayers } from '@werkbank/plugin-magazine/api';
import { layersEntities, LayersResources, layersTranslations } from './layers-node-contributions';
import { LayersServices } from './layers-services';
import { LayerRoutes } from './layer-routes';
import { LayerReaderService } from './layer-reader-service';
import { LayerReader } from '../common/layers-api';
import { DepotLayersService } from './depot-layers-service';
import { layerEventsContribution } from './layer-events-extension';
import { LayerTilesService } from './layer-tiles-service';
import { LayerTileRoutes } from './layer-tile-routes';
import { layerTilesBlobReferences } from './tiles-blob-references';
import { SwitchboardTemplates } from '@werkbank/plugin-switchboards/api';
import { LayerTemplatesService } from './layer-templates-service';
import { layerTemplateTypes } from './layer-template-types';
import { layersBlobReferences } from './legend-blob-references';
import { MetalayerCycleGuard } from './metalayer-cycle-guard';

export default definePlugin((ctx) => {
  ctx.bind(LayersServices).toSelf().inSingletonScope();
  ctx.bind(LayerTemplatesService).toSelf().inSingletonScope();
  // The Switchboards' "create from template" reads layer templates here (decision 0064).
  ctx.bind(SwitchboardTemplates).toService(LayerTemplatesService);
  ctx.contribute(DatumTypeContribution, layerTemplateTypes);
  ctx.contribute(EntityContribution, layersEntities);
  ctx.contribute(NodeTranslationContribution, layersTranslations);
  ctx.contribute(ResourceContribution, LayersResources);
  ctx.contribute(HttpRouteContribution, LayerRoutes);
  ctx.bind(LayerTilesService).toSelf().inSingletonScope();
  ctx.contribute(HttpRouteContribution, LayerTileRoutes);
  ctx.contribute(BlobReferenceContribution, layerTilesBlobReferences);
  ctx.contribute(ResourceExtensionContribution, layerEventsContribution);
  ctx.contribute(BlobReferenceContribution, layersBlobReferences);
  ctx.bind(LayerReader).to(LayerReaderService).inSingletonScope();
  ctx.bind(DepotLayers).to(DepotLayersService).inSingletonScope();
  ctx.contribute(DatumWriteGuardContribution, MetalayerCycleGuard);
});
