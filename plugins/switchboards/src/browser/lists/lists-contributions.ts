import type { EditorContribution, RouteContribution, TranslationContribution } from '@werkbank/sdk/browser';
import { SWITCHBOARD_FOLDER_PATH, SWITCHBOARD_PATH, SWITCHBOARDS_ROUTE } from '../../common/switchboard-types';
import { FROM_DATUM_ROUTE } from './switchboard-list-ids';
import { SwitchboardEditor } from './switchboard-editor';
import { SwitchboardFolderEditor } from './switchboard-folder-editor';
import { UseInSwitchboardMenu } from './use-in-switchboard-menu';
import en from './i18n/en.json';
import de from './i18n/de.json';

/** Texts of this area (namespace 'sb-lists'). */
export const listTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'switchboards.sb-lists', namespace: 'sb-lists', de, en }),
};

/** spec 000 §2: the switchboard list, and the screen behind "Use in switchboard". Loaded on demand. */
export const listRoutes: RouteContribution = {
  registerRoutes(registry) {
    registry.add({ id: 'switchboards.list', path: SWITCHBOARDS_ROUTE, load: () => import('./switchboard-list-screen') });
    registry.add({ id: 'switchboards.from-datum', path: FROM_DATUM_ROUTE, load: () => import('./from-datum-screen') });
  },
};

/** spec 002 §2: editors by address prefix for switchboards (new: the name-and-tags form) and their folders. */
export const listEditors: EditorContribution = {
  registerEditors(registry) {
    registry.add({ id: 'switchboards.switchboard-editor', prefix: SWITCHBOARD_PATH, component: SwitchboardEditor });
    registry.add({
      id: 'switchboards.switchboardfolder-editor',
      prefix: SWITCHBOARD_FOLDER_PATH,
      component: SwitchboardFolderEditor,
    });
  },
};

/** "Use in switchboard" in the Magazine's datum card menu (a class: it navigates through the Navigator). */
export const listMenus = UseInSwitchboardMenu;
