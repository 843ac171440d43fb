import {
  DatumEditorContribution,
  DatumTypeContribution,
  definePlugin,
  RouteContribution,
  TranslationContribution,
} from '@werkbank/sdk/browser';
import { layerTemplateEditors, layerTemplateTypes } from './layer-template-types';
import { DatumCardMenuContribution, DepotActionContribution } from '@werkbank/plugin-magazine/api';
import { DepotAsLayerActions } from './depot-as-layer-actions';
import { layersRoutes, layersTranslations } from './layers-browser-contributions';
import { EditAsLayerMenu } from './edit-as-layer-menu';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, layersTranslations);
  ctx.contribute(RouteContribution, layersRoutes);
  ctx.contribute(DatumCardMenuContribution, EditAsLayerMenu);
  ctx.contribute(DepotActionContribution, DepotAsLayerActions);
  ctx.contribute(DatumTypeContribution, layerTemplateTypes);
  ctx.contribute(DatumEditorContribution, layerTemplateEditors);
});
