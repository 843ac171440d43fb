import {
  ApiError,
  guard,
  inject,
  injectable,
  ServerServices,
  type DatumTypeContribution,
  type HttpRouteContribution,
  type RegistrySink,
  type RouteDescriptor,
} from '@werkbank/sdk/node';
import { coreTypeDescriptors } from '../common/core-types';

export const coreTypeDatumTypes: DatumTypeContribution = {
  registerDatumTypes: (registry) => coreTypeDescriptors().forEach((t) => registry.add(t)),
};

/** GET /api/v1/type/ and /api/v1/type/{name}/ (spec 000 §3 "Type": name and base chain). */
@injectable()
export class TypeRoutes implements HttpRouteContribution {
  @inject(ServerServices) protected readonly services!: ServerServices;

  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    const shape = (name: string) => {
      const t = this.services.types.type(name)!;
      return {
        name,
        base: t.base ?? null,
        base_chain: this.services.types.baseChain(name),
        resource_uri: `/api/v1/type/${name}/`,
      };
    };
    registry.add({
      id: 'types.routes',
      realms: ['type'],
      mount: (router) => {
        router.get('/api/v1/type/', (ctx) => {
          guard(ctx, this.services.gate, undefined, 'type');
          const q = String(ctx.query.q ?? '').toLowerCase();
          const all = this.services.types
            .all()
            .map((t) => t.name)
            .filter((n) => !q || n.includes(q))
            .sort()
            .map(shape);
          ctx.body = { objects: all, meta: { offset: 0, limit: all.length, total_count: all.length } };
        });
        router.get('/api/v1/type/:name/', (ctx) => {
          guard(ctx, this.services.gate, undefined, 'type');
          if (!this.services.types.type(ctx.params.name)) throw ApiError.notFound();
          ctx.body = shape(ctx.params.name);
        });
      },
    });
  }
}
