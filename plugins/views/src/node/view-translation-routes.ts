import {
  ApiError,
  guard,
  inject,
  injectable,
  requestOf,
  type HttpRouteContribution,
  type RegistrySink,
  type ResourceRequest,
  type Row,
  type RouteDescriptor,
  type WerkbankContext,
} from '@werkbank/sdk/node';
import { savedTranslations, type ViewTranslation } from '../common/view-translations';
import { ViewsServices } from './views-services';

/** The component that switches the view translation editor on (spec 002 §2). */
export const TRANSLATION_COMPONENT = 'view_translation_editor';
const PATH = '/api/v2/presenting/view/:id/translations';

const op = (summary: string, codes: number[]) => ({
  tags: ['view'],
  summary,
  responses: Object.fromEntries(codes.map((c) => [c, { description: c < 300 ? 'OK' : 'Error' }])),
});

/**
 * A view's translations (spec 002 §7): `GET` gives every saved key with its values, `POST` replaces
 * them with the rows of its body that have a key and a non-blank value (spec 002 §5), in one
 * transaction. Reading needs read access to the view, saving write access; both need the view
 * translation editor component.
 */
@injectable()
export class ViewTranslationRoutes implements HttpRouteContribution {
  @inject(ViewsServices) protected readonly services!: ViewsServices;

  protected req(ctx: WerkbankContext): ResourceRequest {
    guard(ctx, this.services.gate, TRANSLATION_COMPONENT, 'view');
    return requestOf(ctx, this.services);
  }

  /** The view `raw` (the path's id) when the caller has `access` to it; 404 when it may not read it, 403 when it may not write. */
  protected async view(r: ResourceRequest, raw: string, access: 'read' | 'write'): Promise<Row> {
    if (!/^\d{1,9}$/.test(raw)) throw ApiError.notFound();
    const def = r.services.definitions().find((d) => d.kind === 'view')!;
    const row = await r.services.loadReadable(def, Number(raw), r);
    if (!row) throw ApiError.notFound();
    if (access === 'write' && !(await r.services.mayWrite(def, row, r)))
      throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
    return row;
  }

  protected async list(r: ResourceRequest, viewId: number): Promise<ViewTranslation[]> {
    const rows = (await r.manager.query(`SELECT id, key, "values" FROM views_translation WHERE view_id = $1 ORDER BY key, id`, [
      viewId,
    ])) as { id: number; key: string; values: ViewTranslation['values'] }[];
    return rows.map((row) => ({ key: row.key, key_id: row.id, values: row.values }));
  }

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'views.translations',
      realms: ['view'],
      openapi: {
        '/api/v2/presenting/view/{id}/translations': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          get: op('The view’s translations: key, key_id and values per language (en, de, fr)', [200, 403, 404]),
          post: op('Replaces the view’s translations with the rows that have a key and a non-blank value', [200, 400, 403, 404]),
        },
      },
      mount: (router) => {
        router.get(PATH, async (ctx) => {
          const r = this.req(ctx);
          const view = await this.view(r, ctx.params.id, 'read');
          ctx.body = await this.list(r, view.id);
        });
        router.post(PATH, async (ctx) => {
          const r = this.req(ctx);
          const view = await this.view(r, ctx.params.id, 'write');
          const rows = savedTranslations(await this.services.bodies.jsonValue(ctx));
          if (!rows) throw ApiError.badRequest('invalid_body', 'views:errors.translations', {});
          ctx.body = await this.services.resources.inTransaction(r, 'view', async (w) => {
            await w.manager.query(`DELETE FROM views_translation WHERE view_id = $1`, [view.id]);
            for (const row of rows)
              await w.manager.query(`INSERT INTO views_translation (view_id, key, "values") VALUES ($1, $2, $3)`, [
                view.id,
                row.key,
                JSON.stringify(row.values),
              ]);
            return this.list(w, view.id);
          });
        });
      },
    });
  }
}
