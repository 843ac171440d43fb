import {
  inject,
  injectable,
  Kernel,
  KernelToken,
  Registry,
  TypeHierarchy,
  type ResourceRequest,
  type TypeRegistry,
} from '@werkbank/sdk/node';
import { DatumWriteGuardContribution, type DatumWriteGuard, type DatumWriteTarget } from '../common/magazine-api';

/**
 * The checks other plugins add to datum writes (DatumWriteGuardContribution), collected on the
 * first write: not at construction, because a guard's plugin may itself depend on the Magazine's
 * services. A duplicate id names both plugins.
 */
@injectable()
export class DatumWriteGuards {
  @inject(KernelToken) protected readonly kernel!: Kernel;
  @inject(TypeHierarchy) protected readonly types!: TypeRegistry;
  private guards?: DatumWriteGuard[];

  private all(): DatumWriteGuard[] {
    if (!this.guards) {
      const registry = new Registry<DatumWriteGuard>('datum write guard');
      this.kernel.collect(DatumWriteGuardContribution, registry, (c, sink) => c.registerDatumWriteGuards(sink));
      this.guards = registry.all().sort((a, b) => a.id.localeCompare(b.id));
    }
    return this.guards;
  }

  /**
   * Runs the guards that watch the depot's type (or a type it derives from), in the write's
   * transaction `r` after the datums are written; a guard's ApiError is thrown on, so the caller's
   * transaction rolls back. Call on every path that puts datums into a moment.
   */
  async check(r: ResourceRequest, write: DatumWriteTarget): Promise<void> {
    for (const guard of this.all()) {
      if (guard.types.some((t) => this.types.isAssignable(write.content_type, t))) await guard.check(r, write);
    }
  }
}
