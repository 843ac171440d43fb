import type {
  DatumEditorContribution,
  EditorContribution,
  RouteContribution,
  TranslationContribution,
} from '@werkbank/sdk/browser';
import { DEPOT_PATH, FOLDER_PATH } from '../common/magazine-types';
import { DepotEditor } from './depot-editor';
import { DepotFolderEditor } from './depot-folder-editor';
import { DepotPathEditor } from './depot-path-editor';
import { FileDatumEditor } from './file-datum-editor';
import en from '../common/i18n/en.json';
import de from '../common/i18n/de.json';

export const magazineTranslations: TranslationContribution = {
  registerTranslations: (registry) => registry.add({ id: 'magazine.translations', namespace: 'magazine', de, en }),
};

/** spec 000 §2: the depot list, one folder, one depot (optionally at a moment). Loaded on demand. */
export const magazineRoutes: RouteContribution = {
  registerRoutes(registry) {
    const list = () => import('./depot-list-screen');
    const depot = () => import('./depot-screen');
    registry.add({ id: 'magazine.depots', path: '/depots/', load: list });
    registry.add({ id: 'magazine.folder', path: '/depotfolder/:folderId', load: list });
    registry.add({ id: 'magazine.depot', path: '/depot/:depotId/', load: depot });
    registry.add({ id: 'magazine.depot-moment', path: '/depot/:depotId/moment/:momentId', load: depot });
  },
};

/** spec 002 §2: editors by address prefix for depots and depot folders. */
export const magazineEditors: EditorContribution = {
  registerEditors(registry) {
    registry.add({ id: 'magazine.depot-editor', prefix: DEPOT_PATH, component: DepotEditor });
    registry.add({ id: 'magazine.depotfolder-editor', prefix: FOLDER_PATH, component: DepotFolderEditor });
  },
};

/** Datum editors by content type: the depot path editor (spec 001 §2.1) and the file editor. */
export const magazineDatumEditors: DatumEditorContribution = {
  registerDatumEditors(registry) {
    registry.add({ id: 'magazine.depot-path-editor', contentType: 'depot', component: DepotPathEditor });
    registry.add({ id: 'magazine.file-editor', contentType: 'file', component: FileDatumEditor });
  },
};
