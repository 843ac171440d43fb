import { DatumEditorContribution, DatumTypeContribution, definePlugin, TranslationContribution } from '@werkbank/sdk/browser';
import { coreDatumEditors, coreTypes, typesTranslations } from './types-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(DatumTypeContribution, coreTypes);
  ctx.contribute(DatumEditorContribution, coreDatumEditors);
  ctx.contribute(TranslationContribution, typesTranslations);
});
