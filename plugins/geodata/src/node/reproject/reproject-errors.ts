import { ApiError } from '@werkbank/sdk/node';

/** A failure of a reproject function, with its reason in German and English (`geodata-reproject:errors.*`). */
export function failure(code: string, params: Record<string, unknown> = {}): ApiError {
  return ApiError.badRequest(code, `geodata-reproject:errors.${code}`, params);
}
