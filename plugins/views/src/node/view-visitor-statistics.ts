import type { EntityManager, ResourceDefinition, ResourceRequest, Row, SelectQueryBuilder } from '@werkbank/sdk/node';
import { viewAddress } from '../common/view-rules';
import { daysBefore, type ViewVisitorsOverview, type ViewVisitorStatistics, type VisitorCounts } from '../common/view-analytics';

/** Per group of daily rows: all pageviews and visitors, and those since `$since` (the last seven days). */
const SUMS = (since: string) => `
  sum(pageviews)::float8 AS pageviews, sum(visitors)::float8 AS visitors,
  coalesce(sum(pageviews) FILTER (WHERE day >= ${since}::date), 0)::float8 AS week_pageviews,
  coalesce(sum(visitors) FILTER (WHERE day >= ${since}::date), 0)::float8 AS week_visitors`;

interface Sums {
  pageviews: number | null;
  visitors: number | null;
  week_pageviews: number | null;
  week_visitors: number | null;
}

const counts = (pageviews: number | null, visitors: number | null): VisitorCounts => ({
  pageviews: Number(pageviews ?? 0),
  visitors: Number(visitors ?? 0),
});

/**
 * A view's statistics on `today` (UTC, `YYYY-MM-DD`): the last seven days are today and the six
 * before; a period's visitors are the sum of its days' visitors (decision 0089).
 */
export async function viewVisitorStatistics(m: EntityManager, viewId: number, today: string): Promise<ViewVisitorStatistics> {
  const months = (await m.query(
    `SELECT to_char(date_trunc('month', day), 'YYYY-MM-DD') AS date, ${SUMS('$2')}
       FROM views_visit_day WHERE view_id = $1 GROUP BY 1 ORDER BY 1 DESC`,
    [viewId, daysBefore(today, 6)],
  )) as (Sums & { date: string })[];
  const sum = (pick: (s: Sums) => number | null) => months.reduce((n, s) => n + Number(pick(s) ?? 0), 0);
  return {
    last_seven_days: counts(
      sum((s) => s.week_pageviews),
      sum((s) => s.week_visitors),
    ),
    total: counts(
      sum((s) => s.pageviews),
      sum((s) => s.visitors),
    ),
    monthly: months.map((s) => ({ date: s.date, ...counts(s.pageviews, s.visitors) })),
  };
}

/**
 * The views `req`'s caller may read (the resource layer's rule), with their statistics on `today`:
 * most pageviews in the last seven days first, then by name.
 */
export async function visitorsOverview(
  req: ResourceRequest,
  def: ResourceDefinition,
  page: { offset: number; limit: number },
  today: string,
): Promise<ViewVisitorsOverview> {
  const qb = req.manager.createQueryBuilder().from(def.table, 'v').select('v.id', 'id') as unknown as SelectQueryBuilder<Row>;
  req.services.applyReadable(qb, def, req, 'v');
  const [readable, params] = qb.getQueryAndParameters();
  const n = params.length;
  const [{ total_count }] = (await req.manager.query(`SELECT count(*)::int AS total_count FROM (${readable}) r`, params)) as {
    total_count: number;
  }[];
  const rows = (await req.manager.query(
    `SELECT v.id, v.name, v.slug, s.pageviews, s.visitors, s.week_pageviews, s.week_visitors
       FROM views_view v
       LEFT JOIN (SELECT view_id, ${SUMS(`$${n + 1}`)} FROM views_visit_day WHERE view_id IN (${readable}) GROUP BY view_id) s
         ON s.view_id = v.id
      WHERE v.id IN (${readable})
      ORDER BY coalesce(s.week_pageviews, 0) DESC, v.name, v.id
      LIMIT $${n + 2} OFFSET $${n + 3}`,
    [...params, daysBefore(today, 6), page.limit, page.offset],
  )) as (Sums & { id: number; name: string; slug: string })[];
  return {
    objects: rows.map((r) => ({
      view: viewAddress(Number(r.id)),
      name: r.name,
      slug: r.slug,
      last_seven_days: counts(r.week_pageviews, r.week_visitors),
      total: counts(r.pageviews, r.visitors),
    })),
    meta: { offset: page.offset, limit: page.limit, total_count },
  };
}
