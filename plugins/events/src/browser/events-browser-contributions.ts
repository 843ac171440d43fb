import type { MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const eventTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'events.translations', namespace: 'events', de, en }),
};

export const eventRoutes: RouteContribution = {
  registerRoutes: (registry) => registry.add({ id: 'events.feed', path: '/events/', load: () => import('./events-screen') }),
};

export const eventMenus: MenuContribution = {
  registerMenus: (registry) =>
    registry.add({
      id: 'events.menu',
      menu: 'secondary',
      label: 'events:menu',
      icon: 'history',
      path: '/events/',
      order: 20,
      when: (c) => c.isEnabled('events'),
    }),
};
