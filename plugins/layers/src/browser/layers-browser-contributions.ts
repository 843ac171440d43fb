import type { RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const layersTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'layers.translations', namespace: 'layers', de, en }),
};

/** spec 000 §2: /layers/ and /layers/edit/{id}; serving /layers/ makes the main menu's Layers entry live. */
export const layersRoutes: RouteContribution = {
  registerRoutes(registry) {
    registry.add({ id: 'layers.list', path: '/layers/', load: () => import('./layer-list-screen') });
    registry.add({ id: 'layers.editor', path: '/layers/edit/:id', load: () => import('./layer-editor-screen') });
  },
};
