import { definePlugin, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

const portalsTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'portals.translations', namespace: 'portals', de, en }),
};

/** spec 000 §2: /portals/ and /portals/edit/{id}. */
const portalsRoutes: RouteContribution = {
  registerRoutes(registry) {
    registry.add({ id: 'portals.list', path: '/portals/', load: () => import('./portal-list-screen') });
    registry.add({ id: 'portals.editor', path: '/portals/edit/:id', load: () => import('./portal-editor-screen') });
  },
};

/** The portals plugin in the workbench: the portal list and the portal editor. */
export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, portalsTranslations);
  ctx.contribute(RouteContribution, portalsRoutes);
});
