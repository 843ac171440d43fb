// #region node-module
import {
  DatumTypeContribution,
  definePlugin,
  EntityContribution,
  FunctionContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
} from '@werkbank/sdk/node';
import { helloEntities, helloResources, helloRoutes, helloTranslations } from './hello-node-contributions';
import { GreetFunction } from './greet-function';
import { SendCardsFunction } from './send-cards-function';
import { helloDatumTypes } from '../common/greeting-card';
import { GERMANY_START, ViewStartModes } from './germany-start-mode';

export default definePlugin((ctx) => {
  ctx.contribute(EntityContribution, helloEntities);
  ctx.contribute(ResourceContribution, helloResources);
  ctx.contribute(HttpRouteContribution, helloRoutes);
  ctx.contribute(NodeTranslationContribution, helloTranslations);
  ctx.contribute(FunctionContribution, GreetFunction);
  ctx.contribute(FunctionContribution, SendCardsFunction);
  ctx.contribute(DatumTypeContribution, helloDatumTypes);
  // Where views may start (an option of the view editor's Home view tab, when the views plugin is installed).
  ctx.contribute(ViewStartModes, GERMANY_START);
});
// #endregion node-module
