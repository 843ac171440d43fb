import { definePlugin, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { DatumCardMenuContribution } from '@werkbank/plugin-magazine/api';
import { layersRoutes, layersTranslations } from './layers-browser-contributions';
import { EditAsLayerMenu } from './edit-as-layer-menu';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, layersTranslations);
  ctx.contribute(RouteContribution, layersRoutes);
  ctx.contribute(DatumCardMenuContribution, EditAsLayerMenu);
});
