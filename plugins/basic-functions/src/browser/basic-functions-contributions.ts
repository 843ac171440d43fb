import type { NodeRendererContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { ResultPreviewBody } from './result-preview-body';
import en from './i18n/en.json';
import de from './i18n/de.json';

export const basicFunctionTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'basic-functions.translations', namespace: 'basic-functions', de, en }),
};

/** The canvas draws string, number and bool functions and frame.count with their result inside. */
export const basicFunctionRenderers: NodeRendererContribution = {
  registerNodeRenderers: (registry) =>
    registry.add({
      id: 'basic-functions.result-preview',
      functions: ['string.', 'number.', 'bool.', 'frame.count'],
      priority: 10,
      component: ResultPreviewBody,
    }),
};
