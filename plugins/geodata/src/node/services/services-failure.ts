import { ApiError } from '@werkbank/sdk/node';

/** A failure of a service import, with its reason in German and English (`geodata-services:errors.*`). */
export function servicesFailure(code: string, params: Record<string, unknown> = {}): ApiError {
  return ApiError.badRequest(code, `geodata-services:errors.${code}`, params);
}
