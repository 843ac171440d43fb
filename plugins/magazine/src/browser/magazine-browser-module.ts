import {
  DatumEditorContribution,
  definePlugin,
  EditorContribution,
  RouteContribution,
  TranslationContribution,
  XhrUploadTransport,
} from '@werkbank/sdk/browser';
import { magazineDatumEditors, magazineEditors, magazineRoutes, magazineTranslations } from './magazine-browser-contributions';
import { UploadTransport } from './upload-transport';
import { DatumCardMenuRegistry } from './datum-card-menu-registry';
import { DepotActionRegistry } from './depot-action-registry';
import { DepotMetadataEditor } from '../common/magazine-api';
import { KeyValueDepotMetadata } from './metadata-editor';

export default definePlugin((ctx) => {
  ctx.contribute(TranslationContribution, magazineTranslations);
  ctx.contribute(RouteContribution, magazineRoutes);
  ctx.contribute(EditorContribution, magazineEditors);
  ctx.contribute(DatumEditorContribution, magazineDatumEditors);
  ctx.bind(UploadTransport).toConstantValue(new XhrUploadTransport());
  ctx.bind(DatumCardMenuRegistry).toSelf().inSingletonScope();
  ctx.bind(DepotActionRegistry).toSelf().inSingletonScope();
  ctx.bind(DepotMetadataEditor).toConstantValue(KeyValueDepotMetadata);
});
