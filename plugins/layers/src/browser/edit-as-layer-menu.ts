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
import type { DatumCardMenuContribution, DatumCardMenuEntry, DatumMenuTarget } from '@werkbank/plugin-magazine/api';
import { layerTypeForDepot } from '../common/layer-types';
import { typeNameOf } from '../common/layerable-types';

/**
 * "Edit as layer" in the Magazine's datum card menu (through its API): on a datum of a depot a
 * layer can show, `{datum}edit_as_layer/` finds or makes the layer and the editor opens; when
 * the server refuses, its reason is shown (spec 000 §8 "show_as_layer not ok").
 */
@injectable()
export class EditAsLayerMenu implements DatumCardMenuContribution {
  @inject(ApiClient) protected readonly api!: ApiClient;
  @inject(NotificationService) protected readonly notifications!: NotificationService;
  @inject(Navigator) protected readonly navigator!: Navigator;
  @inject(TypeHierarchy) protected readonly types!: TypeRegistry;

  registerDatumCardMenu(registry: RegistrySink<DatumCardMenuEntry>): void {
    registry.add({
      id: 'layers.edit-as-layer',
      label: 'layers:menu.edit_as_layer',
      icon: 'layers',
      order: 50,
      when: (target) => !!layerTypeForDepot(typeNameOf(target.depot.content_type), (a, b) => this.types.isAssignable(a, b)),
      run: (target) => void this.open(target),
    });
  }

  protected async open({ datum }: DatumMenuTarget): Promise<void> {
    try {
      const reply = await this.api.get<{ url: string }>(`${datum.resource_uri}edit_as_layer/`);
      this.navigator.navigate(reply.url);
    } catch (e) {
      this.notifications.error((e as Error).message);
    }
  }
}
