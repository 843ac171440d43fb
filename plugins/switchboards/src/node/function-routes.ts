import {
  ApiError,
  guard,
  inject,
  injectable,
  requestOf,
  type HttpRouteContribution,
  type RegistrySink,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { FUNCTION_LIST_LIMIT, FUNCTION_PATH, functionJson, searchFunctions } from './function-catalog';
import { SwitchboardsServices } from './switchboards-services';

/** The function list (spec 000 §5 search rules), one function, favour and unfavour. */
@injectable()
export class FunctionRoutes implements HttpRouteContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;

  private caller(ctx: WerkbankContext) {
    guard(ctx, this.services.gate, undefined, 'switchboard');
    return requestOf(ctx, this.services);
  }

  private async favorites(userId: number): Promise<Set<string>> {
    const rows = (await this.services.dataSource.query(`SELECT func FROM switchboard_function_favorite WHERE user_id = $1`, [
      userId,
    ])) as { func: string }[];
    return new Set(rows.map((r) => r.func));
  }

  private fn(name: string) {
    const fn = this.services.functions.get(name);
    if (!fn) throw ApiError.notFound();
    return fn;
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'switchboards.functions',
      openapi: {
        [FUNCTION_PATH]: {
          get: {
            summary:
              'Functions nodes can run. q (from 2 characters; ending with ! includes hidden functions), input_type, output_type, namespace (comma separated), filter=favorites, offset, limit (≤ 1000).',
          },
        },
        [`${FUNCTION_PATH}{name}/`]: { get: { summary: 'One function with its ports.' } },
        [`${FUNCTION_PATH}{name}/favor/`]: {
          get: {
            summary: 'Marks the function as a favourite (state-changing GET: needs the CSRF header).',
            'x-changes-state': true,
          },
          post: { summary: 'Marks the function as a favourite.' },
        },
        [`${FUNCTION_PATH}{name}/unfavor/`]: {
          get: {
            summary: 'Removes the function from the favourites (state-changing GET: needs the CSRF header).',
            'x-changes-state': true,
          },
          post: { summary: 'Removes the function from the favourites.' },
        },
      },
      mount: (router) => {
        router.get(FUNCTION_PATH, async (ctx) => {
          const r = this.caller(ctx);
          const q = ctx.query as Record<string, string | undefined>;
          const int = (name: string, fallback: number) => {
            const raw = q[name];
            if (raw === undefined || raw === '') return fallback;
            if (!/^\d{1,9}$/.test(raw))
              throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name }, name);
            return Number(raw);
          };
          const offset = int('offset', 0);
          const limit = Math.min(Math.max(1, int('limit', FUNCTION_LIST_LIMIT)), FUNCTION_LIST_LIMIT);
          const filter = q.filter ?? '';
          if (filter && filter !== 'favorites') {
            throw ApiError.badRequest('invalid_parameter', 'switchboards:errors.function_filter', { name: filter }, 'filter');
          }
          for (const t of ['input_type', 'output_type'] as const) {
            if (q[t] && !this.services.types.type(q[t]!)) {
              throw ApiError.badRequest('invalid_parameter', 'switchboards:errors.unknown_type', { type: q[t] }, t);
            }
          }
          const favorites = await this.favorites(r.user.id);
          const found = searchFunctions(
            this.services.functions.all(),
            {
              q: q.q,
              input_type: q.input_type || undefined,
              output_type: q.output_type || undefined,
              namespace: q.namespace,
              favorites,
              onlyFavorites: filter === 'favorites',
            },
            this.services.types,
          );
          ctx.body = {
            objects: found
              .slice(offset, offset + limit)
              .map((fn) => functionJson(fn, r.lang, favorites.has(fn.id), this.services.functions.ownerOf(fn.id))),
            meta: { offset, limit, total_count: found.length },
          };
        });
        router.get(`${FUNCTION_PATH}:name/`, async (ctx) => {
          const r = this.caller(ctx);
          const fn = this.fn(ctx.params.name);
          const favorites = await this.favorites(r.user.id);
          ctx.body = functionJson(fn, r.lang, favorites.has(fn.id), this.services.functions.ownerOf(fn.id));
        });
        for (const [name, on] of [
          ['favor', true],
          ['unfavor', false],
        ] as const) {
          // State-changing GETs (CSRF header needed) and their POST forms.
          router.register(`${FUNCTION_PATH}:name/${name}/`, ['GET', 'POST'], async (ctx) => {
            const r = this.caller(ctx);
            const fn = this.fn(ctx.params.name);
            if (on) {
              await this.services.dataSource.query(
                `INSERT INTO switchboard_function_favorite (user_id, func) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
                [r.user.id, fn.id],
              );
            } else {
              await this.services.dataSource.query(`DELETE FROM switchboard_function_favorite WHERE user_id = $1 AND func = $2`, [
                r.user.id,
                fn.id,
              ]);
            }
            ctx.body = {
              status: 'ok',
              favored: on,
              function: functionJson(fn, r.lang, on, this.services.functions.ownerOf(fn.id)),
            };
          });
        }
      },
    });
  }
}
