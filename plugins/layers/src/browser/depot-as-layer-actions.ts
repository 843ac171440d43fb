import {
  ApiClient,
  inject,
  injectable,
  Navigator,
  NotificationService,
  TypeHierarchy,
  type RegistrySink,
  type TypeRegistry,
} from '@werkbank/sdk/browser';
import type { DepotActionContribution, DepotActionEntry, DepotActionTarget } from '@werkbank/plugin-magazine/api';
import { layerTypeForDepot } from '../common/layer-types';
import { typeNameOf } from '../common/layerable-types';

/**
 * "Show as layer" and "Edit as layer" on the Magazine's depot screen and in its moment menu
 * (through DepotActionContribution, decision 0064): `{depot}show_as_layer/` or
 * `{moment}show_as_layer/` (and edit_as_layer) find or make the layer and its address opens; when
 * the server says no, its reason is shown (spec 000 §7 "not ok → show the server's reason").
 */
@injectable()
export class DepotAsLayerActions implements DepotActionContribution {
  @inject(ApiClient) protected readonly api!: ApiClient;
  @inject(NotificationService) protected readonly notifications!: NotificationService;
  @inject(Navigator) protected readonly navigator!: Navigator;
  @inject(TypeHierarchy) protected readonly types!: TypeRegistry;

  registerDepotActions(registry: RegistrySink<DepotActionEntry>): void {
    const layerable = (target: DepotActionTarget) =>
      !!layerTypeForDepot(typeNameOf(target.depot.content_type), (a, b) => this.types.isAssignable(a, b));
    for (const mode of ['show', 'edit'] as const) {
      registry.add({
        id: `layers.${mode}-as-layer`,
        label: `layers:menu.${mode}_as_layer`,
        icon: mode === 'show' ? 'layers' : 'edit',
        order: mode === 'show' ? 50 : 51,
        when: layerable,
        run: (target) => void this.open(target, mode),
      });
    }
  }

  protected async open(target: DepotActionTarget, mode: 'show' | 'edit'): Promise<void> {
    const about = target.moment?.resource_uri ?? target.depot.resource_uri;
    try {
      const reply = await this.api.get<{ status?: string; url?: string; reason?: string }>(`${about}${mode}_as_layer/`);
      if (reply.status !== 'ok' || !reply.url) {
        this.notifications.error(reply.reason || String(reply.status));
        return;
      }
      this.navigator.navigate(reply.url);
    } catch (e) {
      this.notifications.error((e as Error).message);
    }
  }
}
