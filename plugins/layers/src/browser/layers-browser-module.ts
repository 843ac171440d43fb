import { definePlugin, TranslationContribution } from '@werkbank/sdk/browser';
import { layersTranslations } from './layers-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, layersTranslations);
});
