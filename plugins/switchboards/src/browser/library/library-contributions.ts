import type { RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from './i18n/en.json';
import de from './i18n/de.json';

/** Texts of the function library (namespace 'sb-library'). */
export const libraryTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.sb-library', namespace: 'sb-library', de, en }),
};

/** spec 000 §2: /library/, opened in a new tab from the user menu's 'Function library'. Loaded on demand. */
export const libraryRoutes: RouteContribution = {
  registerRoutes: (registry) =>
    registry.add({ id: 'switchboards.library', path: '/library/', load: () => import('./function-library-screen') }),
};
