import type Router from '@koa/router';
import type { DataSource } from 'typeorm';
import { API_CALLS_PATH, type ApiCallStatistic, type ComponentGate } from '@werkbank/kernel';
import { ApiError, guard, requestOf, type ResourceServices, type WerkbankState } from '@werkbank/sdk/node';
import { DDSketch } from './dd-sketch';
import { API_STATS_ACCURACY, type ApiCallRecorder } from './api-call-recorder';

/** Milliseconds with two decimals (the sketch is accurate to 1 %, more digits say nothing). */
const ms = (v: number | undefined) => Math.round((v ?? 0) * 100) / 100;

/**
 * The statistics of one user's calls, newest month first, then by path and status code: the
 * stored bucket counts of every process added per series, as one DDSketch each.
 */
export async function apiCallStatistics(db: DataSource, userId: number): Promise<ApiCallStatistic[]> {
  const rows = (await db.query(
    `SELECT month, path, status_code, bucket, count::float8 AS count FROM werkbank_api_call_bucket
     WHERE user_id = $1 ORDER BY month DESC, path, status_code`,
    [userId],
  )) as Array<{ month: string; path: string; status_code: number; bucket: number; count: number }>;
  const series = new Map<string, { month: string; path: string; status_code: number; sketch: DDSketch }>();
  for (const r of rows) {
    const id = `${r.month}\t${r.path}\t${r.status_code}`;
    let s = series.get(id);
    if (!s)
      series.set(
        id,
        (s = { month: r.month, path: r.path, status_code: r.status_code, sketch: new DDSketch(API_STATS_ACCURACY) }),
      );
    s.sketch.addToBucket(r.bucket, r.count);
  }
  return [...series.values()].map((s) => ({
    month: s.month,
    path: s.path,
    status_code: s.status_code,
    count: s.sketch.count,
    p50_duration_ms: ms(s.sketch.quantile(0.5)),
    p95_duration_ms: ms(s.sketch.quantile(0.95)),
  }));
}

/**
 * GET /api/v2/analytics/api-calls?user={userUri} (spec 002 §7): while the api_stats component is
 * on, for superusers (spec 002 §6: the API Statistics tab is theirs), the user read through the
 * resource layer. This process's unflushed calls are flushed first, so the reply includes them;
 * other processes' arrive with their next flush.
 */
export function mountApiStatsRoutes(
  router: Router<WerkbankState>,
  db: DataSource,
  gate: ComponentGate,
  resources: ResourceServices,
  recorder: ApiCallRecorder,
): void {
  router.get(API_CALLS_PATH, async (ctx) => {
    guard(ctx, gate, 'api_stats', 'analytics');
    const req = requestOf(ctx, { dataSource: db, resources });
    if (!req.user.isSuperuser) throw ApiError.forbidden('superuser_required', 'errors.superuser_required');
    const address = typeof ctx.query.user === 'string' ? ctx.query.user : '';
    const target = resources.resolveAddress(address);
    if (!target || target.def.kind !== 'user')
      throw ApiError.badRequest('invalid_parameter', 'errors.field_ref', { field: 'user', path: '/api/v1/user/' }, 'user');
    if (!(await resources.loadReadable(target.def, target.id, req))) throw ApiError.notFound();
    await recorder.flush();
    const objects = await apiCallStatistics(db, target.id);
    ctx.body = { objects, meta: { offset: 0, limit: objects.length, total_count: objects.length } };
  });
}
