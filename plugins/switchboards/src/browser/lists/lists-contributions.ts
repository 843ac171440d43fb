import type { EditorContribution, MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from './i18n/en.json';
import de from './i18n/de.json';

/** Texts of this area (namespace 'sb-lists'). */
export const listTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.sb-lists', namespace: 'sb-lists', de, en }),
};

export const listRoutes: RouteContribution = {
  registerRoutes() {},
};

export const listEditors: EditorContribution = {
  registerEditors() {},
};

export const listMenus: MenuContribution = {
  registerMenus() {},
};
