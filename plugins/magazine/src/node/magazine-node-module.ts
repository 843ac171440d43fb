import {
  BlobReferenceContribution,
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
  StartupHookContribution,
} from '@werkbank/sdk/node';
import { magazineEntities, MagazineResources, magazineTranslations } from './magazine-node-contributions';
import { DatumRoutes } from './datum-routes';
import { DepotRoutes } from './depot-routes';
import { MomentRoutes } from './moment-routes';
import { DepotLayerRoutes } from './depot-layer-routes';
import { UploadRoutes } from './upload-routes';
import { MagazineMaintenance } from './magazine-maintenance';
import { MagazineDepotAccess } from './depot-access-service';
import { magazineBlobReferences } from './datum-blob-references';
import { DepotAccess } from '../common/magazine-api';
import { MagazineServices } from './magazine-services';
import { DatumWriteGuards } from './datum-write-guards';

export default definePlugin((ctx) => {
  ctx.bind(MagazineServices).toSelf().inSingletonScope();
  ctx.bind(DatumWriteGuards).toSelf().inSingletonScope();
  ctx.contribute(EntityContribution, magazineEntities);
  ctx.contribute(NodeTranslationContribution, magazineTranslations);
  ctx.contribute(ResourceContribution, MagazineResources);
  ctx.contribute(HttpRouteContribution, DepotRoutes);
  ctx.contribute(HttpRouteContribution, MomentRoutes);
  ctx.contribute(HttpRouteContribution, DepotLayerRoutes);
  ctx.contribute(HttpRouteContribution, DatumRoutes);
  ctx.contribute(HttpRouteContribution, UploadRoutes);
  ctx.contribute(StartupHookContribution, MagazineMaintenance);
  ctx.contribute(BlobReferenceContribution, magazineBlobReferences);
  ctx.bind(DepotAccess).to(MagazineDepotAccess).inSingletonScope();
});
