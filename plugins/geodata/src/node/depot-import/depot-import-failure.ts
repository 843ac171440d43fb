import { ApiError } from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };

/** The reasons depot.import_file fails with: one per message, so that the type checker refuses a reason without one. */
export type DepotImportFailure = keyof typeof en.errors;

/** A failure of depot.import_file, with its reason in German and English (`geodata-depot-import:errors.*`). */
export function failure(code: DepotImportFailure, params: Record<string, unknown> = {}): ApiError {
  return ApiError.badRequest(code, `geodata-depot-import:errors.${code}`, params);
}
