import {
  definePlugin,
  EntityContribution,
  NodeTranslationContribution,
  ResourceContribution,
  ResourceExtensionContribution,
} from '@werkbank/sdk/node';
import { tagEntities, tagResources, tagTranslations } from './tags-node-contributions';
import { TagResourceExtension } from './tag-extension';

export default definePlugin((ctx) => {
  ctx.contribute(EntityContribution, tagEntities);
  ctx.contribute(ResourceContribution, tagResources);
  ctx.contribute(ResourceExtensionContribution, TagResourceExtension);
  ctx.contribute(NodeTranslationContribution, tagTranslations);
});
