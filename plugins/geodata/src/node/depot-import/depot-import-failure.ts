import { failureOf } from '../failure';
import en from './i18n/en.json' with { type: 'json' };

/** The reasons depot.import_file fails with: one per message, so that the type checker refuses a reason without one. */
export type DepotImportFailure = keyof typeof en.errors;

/** A failure of depot.import_file, with its reason in German and English (`geodata-depot-import:errors.*`). */
export const failure = failureOf<DepotImportFailure>('geodata-depot-import');
