import type { Middleware } from 'koa';
import type { ErrorBody } from '@werkbank/kernel';
import { ApiError, type WerkbankState } from '@werkbank/sdk/node';

/**
 * Turns every error into `{status: 'error', reason, code}` with a fitting status (DESIGN §3).
 * Reasons of ApiErrors are translated into the caller's language; anything else is a 500 whose
 * details go to the log only.
 */
export function errorMiddleware(log: (msg: string) => void): Middleware<WerkbankState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      const t = ctx.state.t;
      if (e instanceof ApiError) {
        const [ns, key] = e.key.includes(':') ? e.key.split(':', 2) : ['server', e.key];
        const reason = t ? String(t(key, { ns, ...e.params })) : e.key;
        ctx.status = e.status;
        ctx.body = { status: 'error', reason, code: e.code, ...(e.field ? { field: e.field } : {}) } satisfies ErrorBody;
        return;
      }
      const driverCode = (e as { driverError?: { code?: string } }).driverError?.code ?? (e as { code?: string }).code;
      if (driverCode === '23505' || driverCode === '23503') {
        // Unique or reference violations a caller caused (e.g. a taken username): 400, nothing written.
        ctx.status = 400;
        const key = driverCode === '23505' ? 'errors.duplicate' : 'errors.reference_missing';
        ctx.body = {
          status: 'error',
          reason: t ? String(t(key)) : key,
          code: driverCode === '23505' ? 'duplicate' : 'reference_missing',
        } satisfies ErrorBody;
        return;
      }
      if (driverCode === '22P05' || driverCode === '22021') {
        // Text the database cannot hold (U+0000 in text or jsonb) that slipped past the boundary checks.
        ctx.status = 400;
        ctx.body = {
          status: 'error',
          reason: t ? String(t('errors.invalid_text')) : 'errors.invalid_text',
          code: 'invalid_text',
        } satisfies ErrorBody;
        return;
      }
      const err = e as { status?: number; expose?: boolean; message?: string };
      if (err.status && err.status < 500 && err.expose) {
        ctx.status = err.status;
        ctx.body = { status: 'error', reason: err.message ?? 'Bad request', code: 'bad_request' } satisfies ErrorBody;
        return;
      }
      log(`Internal error on ${ctx.method} ${ctx.path}: ${(e as Error).stack ?? String(e)}`);
      ctx.status = 500;
      ctx.body = {
        status: 'error',
        reason: t ? String(t('errors.internal')) : 'Internal error',
        code: 'internal',
      } satisfies ErrorBody;
    }
  };
}
