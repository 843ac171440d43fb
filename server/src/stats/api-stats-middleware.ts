import type { Middleware } from 'koa';
import type { ComponentGate } from '@werkbank/kernel';
import type { WerkbankState } from '@werkbank/sdk/node';
import type { ApiCallRecorder } from './api-call-recorder';

/** The path recorded for an API call no route matched: never the raw path (unbounded series). */
export const UNMATCHED_PATH = '(unmatched)';

const templates = new Map<string, string>();

/** A router path as the statistics show it: `/api/v1/layer/:id/` → `/api/v1/layer/{id}/`. */
export function pathTemplate(routerPath: string): string {
  let t = templates.get(routerPath);
  if (t === undefined) {
    t = routerPath.replace(/[:*](\w+)/g, '{$1}');
    templates.set(routerPath, t);
  }
  return t;
}

/** `YYYY-MM` of a time in UTC, computed once per month. */
let monthStart = 0;
let monthEnd = 0;
let monthText = '';
export function monthOf(ms: number): string {
  if (ms < monthStart || ms >= monthEnd) {
    const d = new Date(ms);
    monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    monthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    monthText = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  }
  return monthText;
}

/**
 * Records every call under /api/ while the api_stats component is on (issue 19, spec 002 §3): its
 * month, the route template the router matched, the final status code and the signed-in user, with
 * its duration. Mounted outside the error middleware, so refused and failed calls count with the
 * status the caller received. Only memory is touched; the recorder flushes periodically.
 */
export function apiStatsMiddleware(recorder: ApiCallRecorder, gate: ComponentGate): Middleware<WerkbankState> {
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/api/') || !gate.isEnabled('api_stats')) return next();
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const matched = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
      recorder.record(
        {
          month: monthOf(Date.now()),
          path: typeof matched === 'string' ? pathTemplate(matched) : UNMATCHED_PATH,
          status: ctx.status,
          userId: ctx.state.user?.id ?? 0,
        },
        durationMs,
      );
    }
  };
}
