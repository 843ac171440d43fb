import type { MenuContribution } from '@werkbank/sdk/browser';
import { DATUM_CARD_MENU, fromDatumRoute } from './switchboard-list-ids';
import { openRoute } from './open-route';

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
export const useInSwitchboardMenu: MenuContribution = {
  registerMenus(registry) {
    registry.add({
      id: 'switchboards.use-in-switchboard',
      menu: DATUM_CARD_MENU,
      label: 'sb-lists:datum.use_in_switchboard',
      icon: 'flow-branch',
      order: 50,
      when: (_ctx, target) => isDatumTarget(target),
      run: (target) => {
        if (isDatumTarget(target)) openRoute(fromDatumRoute(target.datum.resource_uri));
      },
    });
  },
};
