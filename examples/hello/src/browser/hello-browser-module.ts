import { definePlugin, MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { helloMenus, helloRoutes, helloTranslations } from './hello-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, helloTranslations);
  ctx.contribute(MenuContribution, helloMenus);
  ctx.contribute(RouteContribution, helloRoutes);
});
