import type {
  DatumEditorContribution,
  EditorContribution,
  MenuContribution,
  RouteContribution,
  TranslationContribution,
} from '@werkbank/sdk/browser';
import { TAGS_PATH } from '../common/tag-rules';
import { TagEditor } from './tag-editor';
import { TagDatumEditor } from './tag-datum-editor';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const tagTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'tags.translations', namespace: 'tags', de, en }),
};

export const tagRoutes: RouteContribution = {
  registerRoutes: (registry) => registry.add({ id: 'tags.list', path: '/tags/', load: () => import('./tags-screen') }),
};

export const tagMenus: MenuContribution = {
  registerMenus: (registry) =>
    registry.add({
      id: 'tags.menu',
      menu: 'secondary',
      label: 'tags:menu.tags',
      icon: 'tag',
      path: '/tags/',
      order: 10,
      when: (c) => c.isEnabled('tags'),
    }),
};

/** spec 002 §2: the tag editor for addresses under /api/v2/backend/tags/. */
export const tagEditors: EditorContribution = {
  registerEditors: (registry) => registry.add({ id: 'tags.editor', prefix: TAGS_PATH, component: TagEditor }),
};

/** The editor of `tag` datums (a frame's or a depot's): one of the tags, by name. */
export const tagDatumEditors: DatumEditorContribution = {
  registerDatumEditors: (registry) => registry.add({ id: 'tags.datum-editor', contentType: 'tag', component: TagDatumEditor }),
};
