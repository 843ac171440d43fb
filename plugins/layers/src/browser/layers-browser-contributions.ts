import type { TranslationContribution } from '@werkbank/sdk/browser';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const layersTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'layers.translations', namespace: 'layers', de, en }),
};
