import {
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
} from '@werkbank/sdk/node';
import { PortalPageRoute } from './portal-page-route';
import { portalResource } from './portal-resource';
import { PortalsSchema1797200000100 } from './portals-migration';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

const portalsEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({ id: 'portals.entities', entities: [], migrations: [PortalsSchema1797200000100] }),
};

const portalsResources: ResourceContribution = {
  registerResources: (registry) => registry.add(portalResource),
};

const portalsTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'portals.server-translations', namespace: 'portals', de, en }),
};

/** Portals (issue 18, decision 0087): the portal resource with its views and layers, and the public portal page. */
export default definePlugin((ctx) => {
  ctx.contribute(EntityContribution, portalsEntities);
  ctx.contribute(ResourceContribution, portalsResources);
  ctx.contribute(NodeTranslationContribution, portalsTranslations);
  ctx.contribute(HttpRouteContribution, PortalPageRoute);
});
