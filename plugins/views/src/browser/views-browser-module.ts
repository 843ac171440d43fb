import { definePlugin, RouteContribution, TranslationContribution, XhrUploadTransport } from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';
import { ViewImageUploadTransport } from './view-image-upload-transport';

const viewsTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'views.translations', namespace: 'views', de, en }),
};

/** spec 000 §2: /views/, /views/edit/{id}, /finalviews/, /finalviews/edit/{id} and /analytics/; serving /views/ makes the main menu's Views entry live. */
const viewsRoutes: RouteContribution = {
  registerRoutes(registry) {
    registry.add({ id: 'views.list', path: '/views/', load: () => import('./view-list-screen') });
    registry.add({ id: 'views.editor', path: '/views/edit/:id', load: () => import('./view-editor-screen') });
    registry.add({ id: 'views.finalviews', path: '/finalviews/', load: () => import('./finalview-list-screen') });
    registry.add({ id: 'views.finalview-editor', path: '/finalviews/edit/:id', load: () => import('./finalview-editor-screen') });
    registry.add({ id: 'views.analytics', path: '/analytics/', load: () => import('./view-analytics') });
  },
};

/** The views plugin in the workbench: the view list and the view editor with its live preview. */
export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, viewsTranslations);
  ctx.contribute(RouteContribution, viewsRoutes);
  ctx.bind(ViewImageUploadTransport).toConstantValue(new XhrUploadTransport());
});
