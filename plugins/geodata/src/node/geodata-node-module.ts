import {
  DatumTypeContribution,
  definePlugin,
  FunctionContribution,
  NodeTranslationContribution,
  StartupHookContribution,
} from '@werkbank/sdk/node';
import { TabularFunctions, tabularTranslations } from './tabular/tabular-functions';
import { GeometryFunctions, geometryTranslations } from './geometry/geometry-functions';
import { reprojectFunctions, reprojectTranslations } from './reproject/reproject-functions';
import { SourcesFunctions, sourcesTranslations } from './sources/sources-functions';
import { vectorFunctions, vectorTranslations } from './vector/vector-functions';
import { liveDatasetTypes } from './live/live-dataset-types';
import { LiveFunctions, liveTranslations } from './live/live-functions';
import { LiveDatasetStartup } from './live/live-startup';
import { DepotImportFunctions, depotImportTranslations } from './depot-import/depot-import-functions';
import { ServicesFunctions, servicesTranslations } from './services/services-functions';
import { GeodataServices } from './geodata-services';
import { FeatureReprojection } from '../common/geodata-api';
import { FeatureReprojectionService } from './reproject/feature-reprojection-service';

export default definePlugin((ctx) => {
  ctx.bind(GeodataServices).toSelf().inSingletonScope();
  ctx.contribute(FunctionContribution, TabularFunctions);
  ctx.contribute(NodeTranslationContribution, tabularTranslations);
  ctx.contribute(FunctionContribution, GeometryFunctions);
  ctx.contribute(NodeTranslationContribution, geometryTranslations);
  ctx.contribute(FunctionContribution, reprojectFunctions);
  ctx.contribute(NodeTranslationContribution, reprojectTranslations);
  ctx.contribute(FunctionContribution, SourcesFunctions);
  ctx.contribute(NodeTranslationContribution, sourcesTranslations);
  ctx.contribute(FunctionContribution, vectorFunctions);
  ctx.contribute(NodeTranslationContribution, vectorTranslations);
  ctx.contribute(DatumTypeContribution, liveDatasetTypes);
  ctx.contribute(FunctionContribution, LiveFunctions);
  ctx.contribute(NodeTranslationContribution, liveTranslations);
  ctx.contribute(StartupHookContribution, LiveDatasetStartup);
  ctx.contribute(FunctionContribution, DepotImportFunctions);
  ctx.contribute(NodeTranslationContribution, depotImportTranslations);
  ctx.contribute(FunctionContribution, ServicesFunctions);
  ctx.contribute(NodeTranslationContribution, servicesTranslations);
  ctx.bind(FeatureReprojection).to(FeatureReprojectionService).inSingletonScope();
});
