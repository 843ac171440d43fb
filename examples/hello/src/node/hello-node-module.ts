import {
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
} from '@werkbank/sdk/node';
import { helloEntities, helloResources, helloRoutes, helloTranslations } from './hello-node-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(EntityContribution, helloEntities);
  ctx.contribute(ResourceContribution, helloResources);
  ctx.contribute(HttpRouteContribution, helloRoutes);
  ctx.contribute(NodeTranslationContribution, helloTranslations);
});
