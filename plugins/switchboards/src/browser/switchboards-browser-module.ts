import {
  CommandContribution,
  definePlugin,
  KeybindingContribution,
  EditorContribution,
  MenuContribution,
  NodeRendererContribution,
  RouteContribution,
  TranslationContribution,
} from '@werkbank/sdk/browser';
import { ActiveCanvas, CanvasCommands } from './canvas/active-canvas';
import { canvasRoutes, canvasTranslations, defaultNodeRenderers } from './canvas/canvas-contributions';
import { listEditors, listMenus, listRoutes, listTranslations } from './lists/lists-contributions';
import { workflowEditors, workflowMenus, workflowRoutes, workflowTranslations } from './workflows/workflows-contributions';
import { frameDialogTranslations } from './frame-dialog/frame-dialog-contributions';
import { dialogTranslations } from './dialogs/dialogs-contributions';
import { libraryRoutes, libraryTranslations } from './library/library-contributions';
import { DatumCardMenuContribution } from '@werkbank/plugin-magazine/api';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, canvasTranslations);
  ctx.contribute(TranslationContribution, listTranslations);
  ctx.contribute(TranslationContribution, workflowTranslations);
  ctx.contribute(TranslationContribution, frameDialogTranslations);
  ctx.contribute(TranslationContribution, dialogTranslations);
  ctx.contribute(TranslationContribution, libraryTranslations);
  ctx.contribute(RouteContribution, canvasRoutes);
  ctx.contribute(RouteContribution, listRoutes);
  ctx.contribute(RouteContribution, workflowRoutes);
  ctx.contribute(RouteContribution, libraryRoutes);
  ctx.contribute(EditorContribution, listEditors);
  ctx.contribute(EditorContribution, workflowEditors);
  ctx.contribute(DatumCardMenuContribution, listMenus);
  ctx.contribute(MenuContribution, workflowMenus);
  ctx.contribute(NodeRendererContribution, defaultNodeRenderers);
  ctx.bind(ActiveCanvas).toConstantValue({});
  ctx.contribute(CommandContribution, CanvasCommands);
  ctx.contribute(KeybindingContribution, CanvasCommands);
});
