import { inject, injectable, Kernel, KernelToken, postConstruct, Registry, type MenuItemContext } from '@werkbank/sdk/browser';
import { DepotActionContribution, type DepotActionEntry, type DepotActionTarget } from '../common/magazine-api';

/**
 * The Magazine's contribution point for the depot screen: actions other plugins add to the depot's
 * head and the moment menu (DepotActionContribution), collected once when first used.
 */
@injectable()
export class DepotActionRegistry {
  private readonly registry = new Registry<DepotActionEntry>('depot action');
  @inject(KernelToken) protected readonly kernel!: Kernel;

  @postConstruct()
  protected collect(): void {
    this.kernel.collect(DepotActionContribution, this.registry, (c, sink) => c.registerDepotActions(sink));
  }

  /** The actions that show at `place` for `target` and the caller, by order, then id. */
  entries(place: 'depot' | 'moment', target: DepotActionTarget, ctx: MenuItemContext): DepotActionEntry[] {
    return this.registry
      .all()
      .filter((e) => (!e.places || e.places.includes(place)) && (!e.when || e.when(target, ctx)))
      .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.id.localeCompare(b.id));
  }
}
