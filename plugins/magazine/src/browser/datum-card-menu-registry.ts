import { inject, injectable, Kernel, KernelToken, postConstruct, Registry, type MenuItemContext } from '@werkbank/sdk/browser';
import { DatumCardMenuContribution, type DatumCardMenuEntry, type DatumMenuTarget } from '../common/magazine-api';

/**
 * The Magazine's own contribution point: entries other plugins add to the datum card menu
 * (DatumCardMenuContribution), collected once when the registry is first used and removed with the
 * kernel. A duplicate id names both plugins.
 */
@injectable()
export class DatumCardMenuRegistry {
  private readonly registry = new Registry<DatumCardMenuEntry>('datum card menu entry');
  @inject(KernelToken) protected readonly kernel!: Kernel;

  @postConstruct()
  protected collect(): void {
    this.kernel.collect(DatumCardMenuContribution, this.registry, (c, sink) => c.registerDatumCardMenu(sink));
  }

  /** The entries that show for `target` and the caller, by order, then id. */
  entries(target: DatumMenuTarget, ctx: MenuItemContext): DatumCardMenuEntry[] {
    return this.registry
      .all()
      .filter((e) => !e.when || e.when(target, ctx))
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id.localeCompare(b.id));
  }
}
