import type { TranslationContribution } from '@werkbank/sdk/browser';
import en from './i18n/en.json';
import de from './i18n/de.json';

/** Texts of this area (namespace 'sb-frame'). */
export const frameDialogTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.sb-frame', namespace: 'sb-frame', de, en }),
};
