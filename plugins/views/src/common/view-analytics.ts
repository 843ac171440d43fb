/**
 * Visitor statistics of views (issue 18, decision 0089): what the statistics calls answer, for the
 * server that counts and the editor's Analytics tab that shows them. Counted per UTC day; the
 * visitors of a period are the sum of its days' visitors (a visitor is known for one day only).
 */

/** The licensed component that switches recording and the statistics calls on (spec 002 §2). */
export const ANALYTICS_COMPONENT = 'analytics';

/** A view's statistics (spec 002 §7 "Per-view visitor statistics"); `{id}` in the configured template. */
export const VIEW_VISITORS_PATH = '/api/v2/analytics/views/:id/visitors';
export const viewVisitorsPath = (id: number) => `/api/v2/analytics/views/${id}/visitors`;
/** The statistics of every view the caller may read (spec 000 §7). */
export const VISITORS_OVERVIEW_PATH = '/api/v2/analytics/visitors-overview';

/** The largest page of the overview, and its default. */
export const OVERVIEW_MAX_LIMIT = 500;
export const OVERVIEW_DEFAULT_LIMIT = 50;

export interface VisitorCounts {
  pageviews: number;
  visitors: number;
}

/** One calendar month (UTC) of a view's statistics; `date` is its first day, `YYYY-MM-01`. */
export interface MonthlyVisitorCounts extends VisitorCounts {
  date: string;
}

/** spec 002 §6 "View analytics response". `last_seven_days`: today (UTC) and the six days before. */
export interface ViewVisitorStatistics {
  last_seven_days: VisitorCounts;
  total: VisitorCounts;
  /** Newest month first; months without pageviews are left out. */
  monthly: MonthlyVisitorCounts[];
}

/** One row of the visitors overview. */
export interface ViewVisitorsOverviewEntry {
  /** The view's address, /api/v1/view/{id}/. */
  view: string;
  name: string;
  slug: string;
  last_seven_days: VisitorCounts;
  total: VisitorCounts;
}

/** The visitors overview: the readable views, most viewed in the last seven days first, then by name. */
export interface ViewVisitorsOverview {
  objects: ViewVisitorsOverviewEntry[];
  meta: { offset: number; limit: number; total_count: number };
}

/** The UTC calendar day of `at`, `YYYY-MM-DD` (the day visits are counted on). */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The UTC day `days` before `day` (`YYYY-MM-DD`). */
export function daysBefore(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() - days);
  return utcDay(at);
}
