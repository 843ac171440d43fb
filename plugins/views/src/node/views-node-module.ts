import {
  BlobReferenceContribution,
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
  ResourceExtensionContribution,
} from '@werkbank/sdk/node';
import { viewEventsContribution } from './view-events-extension';
import { viewResource } from './view-resource';
import {
  ViewsFinalviews1797200000002,
  ViewsSchema1797200000000,
  ViewsTranslations1797200000001,
  ViewsVisits1797200000003,
} from './views-migration';
import { ViewsImage1797200000004 } from './view-image-migration';
import { viewImageBlobReferences } from './view-image-blob-references';
import { ViewImageRoutes } from './view-image-routes';
import { finalviewResource } from './finalview-resource';
import { FinalviewRoutes } from './finalview-routes';
import { FrozenViewsService } from './frozen-views-service';
import { FrozenViews, ViewStartModes, ViewVisits } from '../common/views-api';
import { VIEWS_START_MODES } from './view-start-modes';
import { ViewsServices } from './views-services';
import { ViewTranslationRoutes } from './view-translation-routes';
import { ViewSceneRoutes } from './view-scene-routes';
import { ViewAnalyticsRoutes } from './view-analytics-routes';
import { ViewVisitsService } from './view-visits-service';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

const viewsEntities: EntityContribution = {
  registerEntities: (registry) =>
    registry.add({
      id: 'views.entities',
      entities: [],
      migrations: [
        ViewsSchema1797200000000,
        ViewsTranslations1797200000001,
        ViewsFinalviews1797200000002,
        ViewsVisits1797200000003,
        ViewsImage1797200000004,
      ],
    }),
};

const viewsResources: ResourceContribution = {
  registerResources: (registry) => {
    registry.add(viewResource);
    registry.add(finalviewResource);
  },
};

const viewsTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'views.server-translations', namespace: 'views', de, en }),
};

/**
 * Views (issue 18, decisions 0086, 0088, 0089, 0092): the view resource with its trees, translations,
 * scenes, visitor statistics and uploaded preview images.
 */
export default definePlugin((ctx) => {
  ctx.bind(ViewsServices).toSelf().inSingletonScope();
  ctx.contribute(HttpRouteContribution, ViewTranslationRoutes);
  ctx.contribute(HttpRouteContribution, FinalviewRoutes);
  ctx.contribute(HttpRouteContribution, ViewSceneRoutes);
  for (const mode of VIEWS_START_MODES) ctx.contribute(ViewStartModes, mode);
  ctx.contribute(HttpRouteContribution, ViewAnalyticsRoutes);
  ctx.contribute(HttpRouteContribution, ViewImageRoutes);
  ctx.contribute(BlobReferenceContribution, viewImageBlobReferences);
  // The layer services serve a frozen view's pinned moments through it.
  ctx.bind(FrozenViews).to(FrozenViewsService).inSingletonScope();
  // The viewer's scene call counts pageviews through it (decision 0089).
  ctx.bind(ViewVisits).to(ViewVisitsService).inSingletonScope();
  ctx.contribute(EntityContribution, viewsEntities);
  ctx.contribute(ResourceContribution, viewsResources);
  ctx.contribute(ResourceExtensionContribution, viewEventsContribution);
  ctx.contribute(NodeTranslationContribution, viewsTranslations);
});
