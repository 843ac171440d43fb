import {
  inject,
  injectable,
  Navigator,
  type MenuContribution,
  type MenuItemDescriptor,
  type RegistrySink,
} from '@werkbank/sdk/browser';
import { DATUM_CARD_MENU, fromDatumRoute } from './switchboard-list-ids';

/** What the Magazine's datum card menu hands its entries (the part we use of its DatumMenuTarget). */
interface DatumMenuTarget {
  datum: { resource_uri: string };
}

const isDatumTarget = (target: unknown): target is DatumMenuTarget =>
  typeof (target as DatumMenuTarget | undefined)?.datum?.resource_uri === 'string';

/**
 * spec 000 §2 "Datum card with a menu: … use in switchboard": an entry of the Magazine's datum card
 * menu (shown wherever the Magazine renders that menu; this plugin does not require it). It opens
 * the from-datum screen, which creates a switchboard holding the datum (its address names the
 * moment shown) and opens its canvas.
 */
@injectable()
export class UseInSwitchboardMenu implements MenuContribution {
  @inject(Navigator) protected readonly navigator!: Navigator;

  registerMenus(registry: RegistrySink<MenuItemDescriptor>): void {
    registry.add({
      id: 'switchboards.use-in-switchboard',
      menu: DATUM_CARD_MENU,
      label: 'sb-lists:datum.use_in_switchboard',
      icon: 'flow-branch',
      order: 50,
      when: (_ctx, target) => isDatumTarget(target),
      run: (target) => {
        if (isDatumTarget(target)) this.navigator.navigate(fromDatumRoute(target.datum.resource_uri));
      },
    });
  }
}
