import type { DatumEditorContribution, DatumTypeContribution } from '@werkbank/sdk/browser';
import { layerTemplateType, LAYER_TEMPLATE_TYPE } from '../common/layer-template';
import { LayerTemplateEditor } from './layer-template-editor';

/** The layer template datum type (decision 0064), in the browser. */
export const layerTemplateTypes: DatumTypeContribution = {
  registerDatumTypes: (registry) => registry.add(layerTemplateType()),
};

/** spec 001 §2.1 "layer template editor": the datum editor of the type. */
export const layerTemplateEditors: DatumEditorContribution = {
  registerDatumEditors: (registry) =>
    registry.add({ id: 'layers.layertemplate-editor', contentType: LAYER_TEMPLATE_TYPE, component: LayerTemplateEditor }),
};
