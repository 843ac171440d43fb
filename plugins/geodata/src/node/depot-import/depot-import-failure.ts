import { ApiError } from '@werkbank/sdk/node';

/** A failure of depot.import_file, with its reason in German and English (`geodata-depot-import:errors.*`). */
export function failure(code: string, params: Record<string, unknown> = {}): ApiError {
  return ApiError.badRequest(code, `geodata-depot-import:errors.${code}`, params);
}
