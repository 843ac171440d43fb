import type { NodeTranslationContribution } from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

/** The reasons functions fail with (`basic-functions:errors.*`), in German and English. */
export const basicFunctionTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) =>
    registry.add({ id: 'basic-functions.server-translations', namespace: 'basic-functions', de, en }),
};
