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
