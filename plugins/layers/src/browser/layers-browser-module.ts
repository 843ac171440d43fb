import { definePlugin, RouteContribution, TranslationContribution, XhrUploadTransport } from '@werkbank/sdk/browser';
import { DatumCardMenuContribution, DepotMetadataEditor } from '@werkbank/plugin-magazine/api';
import { layersRoutes, layersTranslations } from './layers-browser-contributions';
import { EditAsLayerMenu } from './edit-as-layer-menu';
import { LegendUploadTransport } from './legend-upload-transport';
import { DepotTypedMetadata } from './depot-typed-metadata';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, layersTranslations);
  ctx.contribute(RouteContribution, layersRoutes);
  ctx.contribute(DatumCardMenuContribution, EditAsLayerMenu);
  ctx.bind(LegendUploadTransport).toConstantValue(new XhrUploadTransport());
  // Depots get the typed metadata editor (decision 0063); the Magazine binds its key/value one.
  if (ctx.isBound(DepotMetadataEditor)) ctx.rebind(DepotMetadataEditor).toConstantValue(DepotTypedMetadata);
});
