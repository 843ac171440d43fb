import {
  definePlugin,
  MenuContribution,
  RouteContribution,
  TranslationContribution,
  type MenuContribution as MC,
  type RouteContribution as RC,
  type TranslationContribution as TC,
} from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

const appsTranslations: TC = { registerTranslations: (r) => r.add({ id: 'apps.translations', namespace: 'apps', de, en }) };
const appsRoutes: RC = {
  registerRoutes: (r) => [
    r.add({ id: 'apps.addons', path: '/addons/', load: () => import('./apps-screen') }),
    // spec 000 §2: /about/, the information page (version, licences).
    r.add({ id: 'apps.about', path: '/about/', load: () => import('./about-screen') }),
  ],
};
/** The user menu's 'About', before 'Function library'. */
const appsMenus: MC = {
  registerMenus: (r) =>
    r.add({ id: 'apps.about-menu', menu: 'user', label: 'apps:about.menu', icon: 'info-sign', path: '/about/', order: 4 }),
};

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, appsTranslations);
  ctx.contribute(RouteContribution, appsRoutes);
  ctx.contribute(MenuContribution, appsMenus);
});
