import {
  DatumEditorContribution,
  definePlugin,
  EditorContribution,
  MenuContribution,
  RouteContribution,
  TranslationContribution,
} from '@werkbank/sdk/browser';
import { tagDatumEditors, tagEditors, tagMenus, tagRoutes, tagTranslations } from './tags-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, tagTranslations);
  ctx.contribute(RouteContribution, tagRoutes);
  ctx.contribute(MenuContribution, tagMenus);
  ctx.contribute(EditorContribution, tagEditors);
  ctx.contribute(DatumEditorContribution, tagDatumEditors);
});
