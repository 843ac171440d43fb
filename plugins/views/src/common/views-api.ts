/**
 * The views plugin's API for other plugins (package export `@werkbank/plugin-views/api`): the view
 * resource's address and the rule of the publication switch that views and portals share.
 */
export { VIEW_PATH, viewAddress } from './view-rules';

/**
 * spec 002 §4: whether a write changes the publication switch of a view or a portal (PUBLIC or
 * INTERNAL ONLY) — a create with `public: true`, or an update that turns it — which only holders of
 * publish_view may do. A write that leaves it as it is does not. `values` are a create's values or
 * an update's changes, `stored` the stored object.
 */
export function changesPublication(values: Record<string, unknown>, stored?: Record<string, unknown>): boolean {
  return 'public' in values && values.public !== undefined && Boolean(values.public) !== Boolean(stored?.public ?? false);
}
