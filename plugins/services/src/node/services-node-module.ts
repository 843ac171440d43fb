import { definePlugin, NodeTranslationContribution, ServiceEndpointContribution } from '@werkbank/sdk/node';
import { ServicesServices } from './services-services';
import { PublishedLayers } from './published-layers';
import { GeojsonEndpoint } from './geojson-endpoint';
import { WmsEndpoint } from './wms/wms-endpoint';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

export default definePlugin((ctx) => {
  ctx.bind(ServicesServices).toSelf().inSingletonScope();
  ctx.bind(PublishedLayers).toSelf().inSingletonScope();
  ctx.contribute(NodeTranslationContribution, {
    registerTranslations: (registry) => registry.add({ id: 'services.server-translations', namespace: 'services', de, en }),
  });
  ctx.contribute(ServiceEndpointContribution, GeojsonEndpoint);
  ctx.contribute(ServiceEndpointContribution, WmsEndpoint);
});
