import type { EditorContribution, MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import en from './i18n/en.json';
import de from './i18n/de.json';

/** Texts of this area (namespace 'sb-workflows'). */
export const workflowTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.sb-workflows', namespace: 'sb-workflows', de, en }),
};

export const workflowRoutes: RouteContribution = {
  registerRoutes() {},
};

export const workflowEditors: EditorContribution = {
  registerEditors() {},
};

export const workflowMenus: MenuContribution = {
  registerMenus() {},
};
