import type { EditorContribution, MenuContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { GROUP_PATH, USER_PATH } from '../common/admin-paths';
import { UserEditor } from './users/user-editor';
import { GroupEditor } from './groups/group-editor';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const adminTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'admin.translations', namespace: 'admin', de, en }),
};

/** spec 000 §2: /users/ and /groups/ (the lists and their editors). */
export const adminRoutes: RouteContribution = {
  registerRoutes: (registry) => [
    registry.add({ id: 'admin.users', path: '/users/', load: () => import('./users/user-list-screen') }),
    registry.add({ id: 'admin.groups', path: '/groups/', load: () => import('./groups/group-list-screen') }),
  ],
};

/** The secondary menu's Users and Groups, for superusers (spec 002 §6). */
export const adminMenus: MenuContribution = {
  registerMenus: (registry) => [
    registry.add({
      id: 'admin.users-menu',
      menu: 'secondary',
      label: 'admin:menu.users',
      icon: 'people',
      path: '/users/',
      order: 20,
      when: (c) => c.isSuperuser,
    }),
    registry.add({
      id: 'admin.groups-menu',
      menu: 'secondary',
      label: 'admin:menu.groups',
      icon: 'group-objects',
      path: '/groups/',
      order: 25,
      when: (c) => c.isSuperuser,
    }),
  ],
};

/** spec 002 §2: the user editor for /api/v1/user/, the group editor for /api/v1/group/. */
export const adminEditors: EditorContribution = {
  registerEditors: (registry) => [
    registry.add({ id: 'admin.user-editor', prefix: USER_PATH, component: UserEditor }),
    registry.add({ id: 'admin.group-editor', prefix: GROUP_PATH, component: GroupEditor }),
  ],
};
