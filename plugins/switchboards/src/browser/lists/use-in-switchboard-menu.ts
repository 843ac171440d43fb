import { inject, injectable, Navigator, type RegistrySink } from '@werkbank/sdk/browser';
import type { DatumCardMenuContribution, DatumCardMenuEntry } from '@werkbank/plugin-magazine/api';
import { fromDatumRoute } from './switchboard-list-ids';

/**
 * spec 000 §2 "Datum card with a menu: … use in switchboard": an entry of the Magazine's datum card
 * menu (the Magazine is optional: without it nothing shows this entry). It opens the from-datum
 * screen, which creates a switchboard holding the datum (its address names the moment shown) and
 * opens its canvas.
 */
@injectable()
export class UseInSwitchboardMenu implements DatumCardMenuContribution {
  @inject(Navigator) protected readonly navigator!: Navigator;

  registerDatumCardMenu(registry: RegistrySink<DatumCardMenuEntry>): void {
    registry.add({
      id: 'switchboards.use-in-switchboard',
      label: 'sb-lists:datum.use_in_switchboard',
      icon: 'flow-branch',
      order: 50,
      run: (target) => this.navigator.navigate(fromDatumRoute(target.datum.resource_uri)),
    });
  }
}
