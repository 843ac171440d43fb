// #region browser-contributions
import type { MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const helloTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'hello.translations', namespace: 'hello', de, en }),
};

/** A main-menu entry after the spec's entries. */
export const helloMenus: MenuContribution = {
  registerMenus: (registry) =>
    registry.add({ id: 'hello.menu', menu: 'main', label: 'hello:menu', icon: 'hand', path: '/hello/', order: 90 }),
};

export const helloRoutes: RouteContribution = {
  registerRoutes: (registry) =>
    registry.add({ id: 'hello.greetings', path: '/hello/', load: () => import('./greetings-screen') }),
};
// #endregion browser-contributions
