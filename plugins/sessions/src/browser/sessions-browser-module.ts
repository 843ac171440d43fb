import { definePlugin, MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { sessionMenus, sessionRoutes, sessionTranslations } from './sessions-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, sessionTranslations);
  ctx.contribute(RouteContribution, sessionRoutes);
  ctx.contribute(MenuContribution, sessionMenus);
});
