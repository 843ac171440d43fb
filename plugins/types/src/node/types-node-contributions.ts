import {
  ApiError,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  guard,
  inject,
  injectable,
  ComponentGate,
  TypeHierarchy,
  type TypeRegistry,
  type DatumTypeContribution,
  type HttpRouteContribution,
  type RegistrySink,
  type RouteDescriptor,
} from '@werkbank/sdk/node';
import { coreTypeDescriptors } from '../common/core-types';

export const coreTypeDatumTypes: DatumTypeContribution = {
  registerDatumTypes: (registry) => coreTypeDescriptors().forEach((t) => registry.add(t)),
};

/**
 * GET /api/v1/type/ and /api/v1/type/{name}/ (spec 000 §3 "Type"): name, base chain, and the
 * effective schema (null when no type along the chain has one) and template of the datum fields.
 */
@injectable()
export class TypeRoutes implements HttpRouteContribution {
  @inject(TypeHierarchy) protected readonly types!: TypeRegistry;
  @inject(ComponentGate) protected readonly gate!: ComponentGate;

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    const shape = (name: string) => {
      const t = this.types.type(name)!;
      return {
        name,
        base: t.base ?? null,
        base_chain: this.types.baseChain(name),
        schema: this.types.schemaOf(name) ?? null,
        template: this.types.templateOf(name),
        resource_uri: `/api/v1/type/${name}/`,
      };
    };
    registry.add({
      id: 'types.routes',
      realms: ['type'],
      openapi: {
        '/api/v1/type/': {
          get: {
            tags: ['type'],
            summary: 'Datum types with their base chains, schemas and templates (q, offset, limit)',
            responses: { 200: { description: 'List' } },
          },
        },
        '/api/v1/type/{name}/': {
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          get: {
            tags: ['type'],
            summary: 'One datum type with its schema and template',
            responses: { 200: { description: 'Type' }, 404: { description: 'Unknown type' } },
          },
        },
      },
      mount: (router) => {
        router.get('/api/v1/type/', (ctx) => {
          guard(ctx, this.gate, undefined, 'type');
          for (const k of Object.keys(ctx.query)) {
            if (!['q', 'offset', 'limit'].includes(k))
              throw ApiError.badRequest('unknown_filter', 'errors.unknown_filter', { name: k }, k);
          }
          const num = (name: string, fallback: number, max: number) => {
            const raw = ctx.query[name];
            if (raw === undefined || raw === '') return fallback;
            if (typeof raw !== 'string' || !/^\d+$/.test(raw))
              throw ApiError.badRequest('invalid_parameter', 'errors.invalid_integer_param', { name });
            return Math.min(Number(raw), max);
          };
          const offset = num('offset', 0, Number.MAX_SAFE_INTEGER);
          const limit = Math.max(1, num('limit', DEFAULT_LIMIT, MAX_LIMIT));
          const q = String(ctx.query.q ?? '').toLowerCase();
          const all = this.types
            .all()
            .map((t) => t.name)
            .filter((n) => !q || n.includes(q))
            .sort();
          ctx.body = { objects: all.slice(offset, offset + limit).map(shape), meta: { offset, limit, total_count: all.length } };
        });
        router.get('/api/v1/type/:name/', (ctx) => {
          guard(ctx, this.gate, undefined, 'type');
          if (!this.types.type(ctx.params.name)) throw ApiError.notFound();
          ctx.body = shape(ctx.params.name);
        });
      },
    });
  }
}
