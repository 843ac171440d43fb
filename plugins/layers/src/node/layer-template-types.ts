import type { DatumTypeContribution } from '@werkbank/sdk/node';
import { layerTemplateType } from '../common/layer-template';

/** The layer template datum type (decision 0064), on the server. */
export const layerTemplateTypes: DatumTypeContribution = {
  registerDatumTypes: (registry) => registry.add(layerTemplateType()),
};
