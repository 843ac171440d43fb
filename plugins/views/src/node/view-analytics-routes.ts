import {
  ApiError,
  guard,
  inject,
  injectable,
  requestOf,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceDefinition,
  type ResourceRequest,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import {
  ANALYTICS_COMPONENT,
  OVERVIEW_DEFAULT_LIMIT,
  OVERVIEW_MAX_LIMIT,
  utcDay,
  VIEW_VISITORS_PATH,
  VISITORS_OVERVIEW_PATH,
} from '../common/view-analytics';
import { viewVisitorStatistics, visitorsOverview } from './view-visitor-statistics';
import { ViewsServices } from './views-services';

const op = (summary: string, codes: Record<number, string>) => ({
  tags: ['analytics'],
  summary,
  responses: Object.fromEntries(Object.entries(codes).map(([c, description]) => [c, { description }])),
});

/** A whole-number query parameter within `min`..`max`; 400 invalid_parameter otherwise. */
function intParam(ctx: WerkbankContext, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.query[name];
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw ApiError.badRequest('invalid_parameter', 'views:errors.page_param', { name, min, max }, name);
  return Number(raw);
}

/**
 * Visitor statistics of views (spec 002 §2, §6, §7; spec 000 §7; decision 0089), while the
 * analytics component is on (403 component_disabled otherwise; API keys need the realm
 * `analytics`): `GET …/views/{id}/visitors` for a view the caller may read (404 otherwise), and
 * `GET …/visitors-overview` over every view the caller may read, paged by `offset` and `limit`.
 */
@injectable()
export class ViewAnalyticsRoutes implements HttpRouteContribution {
  @inject(ViewsServices) protected readonly services!: ViewsServices;

  protected req(ctx: WerkbankContext): ResourceRequest {
    guard(ctx, this.services.gate, ANALYTICS_COMPONENT, 'analytics');
    return requestOf(ctx, this.services);
  }

  protected viewDefinition(r: ResourceRequest): ResourceDefinition {
    return r.services.definitions().find((d) => d.kind === 'view')!;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'views.analytics',
      realms: ['analytics'],
      openapi: {
        '/api/v2/analytics/views/{id}/visitors': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          get: op('A view’s visitor statistics: last_seven_days and total (pageviews, visitors), and monthly, newest first', {
            200: 'OK',
            403: 'The analytics component is off, or the API key lacks the realm analytics',
            404: 'No such view, or not readable by the caller',
          }),
        },
        [VISITORS_OVERVIEW_PATH]: {
          parameters: [
            { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: OVERVIEW_MAX_LIMIT, default: OVERVIEW_DEFAULT_LIMIT },
            },
          ],
          get: op('The visitor statistics of every view the caller may read, most viewed in the last seven days first', {
            200: 'OK',
            400: 'offset or limit is not a whole number in its range',
            403: 'The analytics component is off, or the API key lacks the realm analytics',
          }),
        },
      },
      mount: (router) => {
        router.get(VIEW_VISITORS_PATH, async (ctx) => {
          const r = this.req(ctx);
          if (!/^\d{1,9}$/.test(ctx.params.id)) throw ApiError.notFound();
          const view = await r.services.loadReadable(this.viewDefinition(r), Number(ctx.params.id), r);
          if (!view) throw ApiError.notFound();
          ctx.body = await viewVisitorStatistics(r.manager, view.id, utcDay(new Date()));
        });
        router.get(VISITORS_OVERVIEW_PATH, async (ctx) => {
          const r = this.req(ctx);
          const page = {
            offset: intParam(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
            limit: intParam(ctx, 'limit', OVERVIEW_DEFAULT_LIMIT, 1, OVERVIEW_MAX_LIMIT),
          };
          ctx.body = await visitorsOverview(r, this.viewDefinition(r), page, utcDay(new Date()));
        });
      },
    });
  }
}
