/**
 * The views plugin's API for other plugins (package export `@werkbank/plugin-views/api`): the view
 * resource's address, the rule of the publication switch that views and portals share, and
 * `FrozenViews`, through which the layer services serve a frozen view's pinned moments.
 */
import { token } from '@werkbank/sdk';
import type { AuthUser } from '@werkbank/sdk/node';
export { VIEW_PATH, viewAddress } from './view-rules';
export type { FinalviewPins } from './finalview-fields';

/** The query parameter of the layer services that names a frozen view (its slug). */
export const FINALVIEW_PARAM = 'finalview';

/** A layer as a frozen view pins it: the approved moment of each pile's depot then (null: none). */
export interface LayerPins {
  revision: number;
  moments: Record<string, number | null>;
}

/** Frozen views for the layer services (node side; bound by the views plugin). */
export interface FrozenViews {
  /**
   * The pins of layer `layerId` in the frozen view `slug`, when `caller` may read that frozen view
   * (anonymous callers: only a public one) and it holds the layer; undefined otherwise, so a frozen
   * view the caller may not read looks like one that does not exist.
   */
  pins(caller: AuthUser | undefined, slug: string, layerId: number): Promise<LayerPins | undefined>;
}
export const FrozenViews = token<FrozenViews>('views.FrozenViews');

/**
 * spec 002 §4: whether a write changes the publication switch of a view or a portal (PUBLIC or
 * INTERNAL ONLY) — a create with `public: true`, or an update that turns it — which only holders of
 * publish_view may do. A write that leaves it as it is does not. `values` are a create's values or
 * an update's changes, `stored` the stored object.
 */
export function changesPublication(values: Record<string, unknown>, stored?: Record<string, unknown>): boolean {
  return 'public' in values && values.public !== undefined && Boolean(values.public) !== Boolean(stored?.public ?? false);
}
