import { definePlugin, MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { eventMenus, eventRoutes, eventTranslations } from './events-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, eventTranslations);
  ctx.contribute(RouteContribution, eventRoutes);
  ctx.contribute(MenuContribution, eventMenus);
});
