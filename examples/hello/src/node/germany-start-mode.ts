// #region start-mode
import { token } from '@werkbank/sdk';
import type { ViewStartMode } from '@werkbank/plugin-views/api';

/**
 * The views plugin's start modes, by the token's name: the token is a registered symbol, so this
 * plugin loads (and contributes to nobody) when the views plugin is not installed.
 */
export const ViewStartModes = token<ViewStartMode>('views.ViewStartModes');

/** A start mode for views: all of Germany, whatever the view holds. */
export const GERMANY_START: ViewStartMode = {
  name: 'hello.germany',
  labels: { en: 'All of Germany (example)', de: 'Ganz Deutschland (Beispiel)' },
  start: () => ({ kind: 'extent', bbox: [5.87, 47.27, 15.04, 55.06] }),
};
// #endregion start-mode
