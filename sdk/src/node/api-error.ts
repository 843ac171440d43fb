/** Marks ApiErrors across copies of the SDK (a plugin's own copy in its tests, the host's). */
const API_ERROR = Symbol.for('werkbank.ApiError');

/**
 * An error a caller caused. `key` names a server translation (namespace 'server' unless given
 * with `ns:`), so the reason reaches the user in their language; `code` is machine-readable.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly key: string,
    readonly params: Record<string, unknown> = {},
    readonly field?: string,
  ) {
    super(`${code}: ${key}`);
    this.name = 'ApiError';
    (this as unknown as Record<symbol, boolean>)[API_ERROR] = true;
  }

  /** `instanceof ApiError` holds for an ApiError of any copy of the SDK. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[API_ERROR] === true;
  }

  static badRequest(code: string, key: string, params: Record<string, unknown> = {}, field?: string): ApiError {
    return new ApiError(400, code, key, params, field);
  }

  static notFound(): ApiError {
    return new ApiError(404, 'not_found', 'errors.not_found');
  }

  static forbidden(code: string, key: string, params: Record<string, unknown> = {}): ApiError {
    return new ApiError(403, code, key, params);
  }

  static unauthorized(): ApiError {
    return new ApiError(401, 'not_authenticated', 'errors.not_authenticated');
  }
}
