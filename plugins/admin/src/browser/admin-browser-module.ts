import {
  definePlugin,
  EditorContribution,
  MenuContribution,
  RouteContribution,
  TranslationContribution,
} from '@werkbank/sdk/browser';
import { adminEditors, adminMenus, adminRoutes, adminTranslations } from './admin-browser-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, adminTranslations);
  ctx.contribute(RouteContribution, adminRoutes);
  ctx.contribute(MenuContribution, adminMenus);
  ctx.contribute(EditorContribution, adminEditors);
});
