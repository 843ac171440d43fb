import { definePlugin, NodeRendererContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { basicFunctionRenderers, basicFunctionTranslations } from './basic-functions-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, basicFunctionTranslations);
  ctx.contribute(NodeRendererContribution, basicFunctionRenderers);
});
