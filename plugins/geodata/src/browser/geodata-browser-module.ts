import { DatumEditorContribution, definePlugin, TranslationContribution } from '@werkbank/sdk/browser';
import { geodataTranslations, liveDatasetEditors } from './geodata-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(DatumEditorContribution, liveDatasetEditors);
  ctx.contribute(TranslationContribution, geodataTranslations);
});
