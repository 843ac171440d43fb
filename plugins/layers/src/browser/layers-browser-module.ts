import { definePlugin, RouteContribution, TranslationContribution, XhrUploadTransport } from '@werkbank/sdk/browser';
import { DatumCardMenuContribution } from '@werkbank/plugin-magazine/api';
import { layersRoutes, layersTranslations } from './layers-browser-contributions';
import { EditAsLayerMenu } from './edit-as-layer-menu';
import { LegendUploadTransport } from './legend-upload-transport';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, layersTranslations);
  ctx.contribute(RouteContribution, layersRoutes);
  ctx.contribute(DatumCardMenuContribution, EditAsLayerMenu);
  ctx.bind(LegendUploadTransport).toConstantValue(new XhrUploadTransport());
});
