import { definePlugin, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { layersRoutes, layersTranslations } from './layers-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, layersTranslations);
  ctx.contribute(RouteContribution, layersRoutes);
});
