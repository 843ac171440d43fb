/**
 * The views plugin's API for other plugins (package export `@werkbank/plugin-views/api`): the view
 * resource's address, the rule of the publication switch that views and portals share,
 * `FrozenViews`, through which the layer services serve a frozen view's pinned moments, and
 * `ViewVisits`, which records the viewer's pageviews (an integrator may replace it).
 */
import { token } from '@werkbank/sdk';
import type { AuthUser, WerkbankContext } from '@werkbank/sdk/node';
import type { SceneLayerGroup, SceneStart } from './view-scene';
import type { PoiGroup } from './view-tree';
export type { SceneStart } from './view-scene';
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

/**
 * Records the viewer's pageviews of views (decision 0089; node side, bound by the views plugin).
 * The default counts pageviews and visitors per view and UTC day without cookies and without
 * storing addresses: a visitor is a salted hash that lives one day.
 */
export interface ViewVisits {
  /**
   * Counts one pageview of view `viewId` by the caller of `ctx` (its address and User-Agent). Called
   * once per scene the viewer loads; does nothing while the analytics component is off. Never
   * throws: a failure is logged and the caller's request goes on.
   */
  record(ctx: WerkbankContext, viewId: number): Promise<void>;
}
export const ViewVisits = token<ViewVisits>('views.ViewVisits');

/**
 * A start mode of views (spec 002 §2: the Home view tab offers 'Automatic' and "further options
 * from plug-ins"; decision 0093). A plugin contributes it on the node side
 * (`ctx.contribute(ViewStartModes, {...})`); the Home view tab offers it by its label, and when a
 * view names it in `config.viewer.start_state` and has no explicit start position, the server asks
 * it where the viewer starts while it builds the scene. Unknown names start as 'Automatic'.
 */
export interface ViewStartMode {
  /** The value of `config.viewer.start_state` (letters, digits, `_`, `-`, `.`). */
  name: string;
  /** The option's label in the Home view tab. */
  labels: { en: string; de: string };
  /** Where the viewer starts, from the view's layers (with their extents) and places; null: as 'Automatic'. */
  start(view: { layergroup: SceneLayerGroup; poigroup: PoiGroup }): SceneStart | null;
}
export const ViewStartModes = token<ViewStartMode>('views.ViewStartModes');

/** The path of the start modes the Home view tab offers: `[{name, label}]` in the caller's language. */
export const START_MODES_PATH = '/api/v2/presenting/start-modes';
