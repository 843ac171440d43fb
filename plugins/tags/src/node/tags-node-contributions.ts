import type {
  EntityContribution,
  EntityDescriptor,
  NodeTranslationContribution,
  RegistrySink,
  ResourceContribution,
  ResourceDefinition,
  TranslationBundle,
} from '@werkbank/sdk/node';
import { TagsSchema1764000001000 } from './tags-migration';
import { tagResource } from './tag-resource';
import en from '../common/i18n/en.json' with { type: 'json' };
import de from '../common/i18n/de.json' with { type: 'json' };

export const tagEntities: EntityContribution = {
  registerEntities(registry: RegistrySink<EntityDescriptor>) {
    registry.add({
      id: 'tags.entities',
      // Tags are read and written through the resource layer and SQL; no TypeORM entity.
      entities: [],
      migrations: [TagsSchema1764000001000],
    });
  },
};

export const tagResources: ResourceContribution = {
  registerResources(registry: RegistrySink<ResourceDefinition>) {
    registry.add(tagResource);
  },
};

export const tagTranslations: NodeTranslationContribution = {
  registerTranslations(registry: RegistrySink<TranslationBundle>) {
    registry.add({ id: 'tags.translations', namespace: 'tags', de, en });
  },
};
