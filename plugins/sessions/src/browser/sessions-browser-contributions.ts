import type { MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const sessionTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'sessions.translations', namespace: 'sessions', de, en }),
};

export const sessionRoutes: RouteContribution = {
  registerRoutes: (registry) =>
    registry.add({ id: 'sessions.list', path: '/sessions/', load: () => import('./sessions-screen') }),
};

export const sessionMenus: MenuContribution = {
  registerMenus: (registry) =>
    registry.add({
      id: 'sessions.menu',
      menu: 'secondary',
      label: 'sessions:menu',
      icon: 'id-number',
      path: '/sessions/',
      order: 30,
      when: (c) => c.isSuperuser && c.isEnabled('sessions'),
    }),
};
