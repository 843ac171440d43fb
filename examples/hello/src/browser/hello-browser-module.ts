// #region browser-module
import {
  DatumEditorContribution,
  DatumTypeContribution,
  definePlugin,
  MenuContribution,
  NodeRendererContribution,
  RouteContribution,
  TranslationContribution,
} from '@werkbank/sdk/browser';
import { DatumCardMenuContribution } from '@werkbank/plugin-magazine/api';
import { helloMenus, helloRoutes, helloTranslations } from './hello-browser-contributions';
import { helloDatumTypes } from '../common/greeting-card';
import { helloDatumEditors } from './greeting-card-editor';
import { helloNodeRenderers } from './greet-node-body';
import { GreetingCardMenu } from './greeting-card-menu';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, helloTranslations);
  ctx.contribute(MenuContribution, helloMenus);
  ctx.contribute(RouteContribution, helloRoutes);
  ctx.contribute(DatumTypeContribution, helloDatumTypes);
  ctx.contribute(DatumEditorContribution, helloDatumEditors);
  ctx.contribute(NodeRendererContribution, helloNodeRenderers);
  ctx.contribute(DatumCardMenuContribution, GreetingCardMenu);
});
// #endregion browser-module
