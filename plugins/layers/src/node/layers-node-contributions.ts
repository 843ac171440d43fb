import {
  inject,
  injectable,
  type EntityContribution,
  type NodeTranslationContribution,
  type ResourceContribution,
} from '@werkbank/sdk/node';
import { LayersSchema1795753535295, LayersStyle1795900000000, LayersStyleDatum1796000000068 } from './layers-migration';
import { layerResource } from './layer-resource';
import { metadataAttributeTypeResource, metadataGroupResource } from './metadata-resources';
import { LayersMetadataSchema1795900000000 } from './metadata-migration';
import { LayersTiles1796100000000 } from './tiles-migration';
import { LayersLegend1796200000000 } from './legend-migration';
import { LayersServices } from './layers-services';
import { LayerTemplatesService } from './layer-templates-service';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

export const layersEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({
      id: 'layers.entities',
      entities: [],
      migrations: [
        LayersSchema1795753535295,
        LayersStyle1795900000000,
        LayersMetadataSchema1795900000000,
        LayersTiles1796100000000,
        LayersStyleDatum1796000000068,
        LayersLegend1796200000000,
      ],
    }),
};

/** Layers on the shared resource layer. */
@injectable()
export class LayersResources implements ResourceContribution {
  @inject(LayersServices) protected readonly services!: LayersServices;
  @inject(LayerTemplatesService) protected readonly templates!: LayerTemplatesService;

  registerResources: ResourceContribution['registerResources'] = (registry) => {
    registry.add(layerResource(this.services, this.templates));
    registry.add(metadataGroupResource);
    registry.add(metadataAttributeTypeResource);
  };
}

export const layersTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'layers.server-translations', namespace: 'layers', de, en }),
};
