import {
  DatumEditorContribution,
  DatumTypeContribution,
  definePlugin,
  RouteContribution,
  TranslationContribution,
  XhrUploadTransport,
} from '@werkbank/sdk/browser';
import { layerTemplateEditors, layerTemplateTypes } from './layer-template-types';
import { DatumCardMenuContribution, DepotActionContribution, DepotMetadataEditor } from '@werkbank/plugin-magazine/api';
import { DepotAsLayerActions } from './depot-as-layer-actions';
import { layersRoutes, layersTranslations } from './layers-browser-contributions';
import { EditAsLayerMenu } from './edit-as-layer-menu';
import { LegendUploadTransport } from './legend-upload-transport';
import { DepotTypedMetadata } from './depot-typed-metadata';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, layersTranslations);
  ctx.contribute(RouteContribution, layersRoutes);
  ctx.contribute(DatumCardMenuContribution, EditAsLayerMenu);
  ctx.contribute(DepotActionContribution, DepotAsLayerActions);
  ctx.contribute(DatumTypeContribution, layerTemplateTypes);
  ctx.contribute(DatumEditorContribution, layerTemplateEditors);
  ctx.bind(LegendUploadTransport).toConstantValue(new XhrUploadTransport());
  // Depots get the typed metadata editor (decision 0063); the Magazine binds its key/value one.
  if (ctx.isBound(DepotMetadataEditor)) ctx.rebind(DepotMetadataEditor).toConstantValue(DepotTypedMetadata);
});
