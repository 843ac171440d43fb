import {
  definePlugin,
  RouteContribution,
  TranslationContribution,
  type RouteContribution as RC,
  type TranslationContribution as TC,
} from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

const appsTranslations: TC = { registerTranslations: (r) => r.add({ id: 'apps.translations', namespace: 'apps', de, en }) };
const appsRoutes: RC = {
  registerRoutes: (r) => r.add({ id: 'apps.addons', path: '/addons/', load: () => import('./apps-screen') }),
};

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, appsTranslations);
  ctx.contribute(RouteContribution, appsRoutes);
});
