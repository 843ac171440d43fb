// #region node-contributions
import {
  guard,
  type EntityContribution,
  type EntityDescriptor,
  type HttpRouteContribution,
  type NodeTranslationContribution,
  type RegistrySink,
  type ResourceContribution,
  type ResourceDefinition,
  type RouteDescriptor,
  type TranslationBundle,
} from '@werkbank/sdk/node';
import { HelloGreetings1764000009000 } from './greeting-migration';
import { greetingResource } from './greeting-resource';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

export const helloEntities: EntityContribution = {
  registerEntities(registry: RegistrySink<EntityDescriptor>) {
    registry.add({ id: 'hello.entities', entities: [], migrations: [HelloGreetings1764000009000] });
  },
};

export const helloResources: ResourceContribution = {
  registerResources(registry: RegistrySink<ResourceDefinition>) {
    registry.add(greetingResource);
  },
};

/** An HTTP route outside the resource layer: GET /api/v1/hello/ping/ answers in the caller's language. */
export const helloRoutes: HttpRouteContribution = {
  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>) {
    registry.add({
      id: 'hello.ping',
      realms: ['greeting'],
      openapi: {
        '/api/v1/hello/ping/': {
          get: {
            tags: ['greeting'],
            summary: 'A greeting in the caller’s language',
            responses: { 200: { description: 'Message' } },
          },
        },
      },
      mount(router) {
        router.get('/api/v1/hello/ping/', (ctx) => {
          guard(ctx, undefined, undefined, 'greeting');
          ctx.body = { message: ctx.state.t('ping', { ns: 'hello' }) };
        });
      },
    });
  },
};

export const helloTranslations: NodeTranslationContribution = {
  registerTranslations(registry: RegistrySink<TranslationBundle>) {
    registry.add({ id: 'hello.translations', namespace: 'hello', de, en });
  },
};
// #endregion node-contributions
