/**
 * The routes of spec 000 §2 and the feature each belongs to, so that a route whose plugin is not
 * installed shows a page that says so instead of an empty screen.
 */
export const SPEC_ROUTE_FEATURES: Array<{ prefix: string; feature: string }> = [
  { prefix: '/depots/', feature: 'magazine' },
  { prefix: '/depot/', feature: 'magazine' },
  { prefix: '/depotfolder/', feature: 'magazine' },
  { prefix: '/switchboards/', feature: 'switchboards' },
  { prefix: '/switchboard/', feature: 'switchboards' },
  { prefix: '/workflows/', feature: 'workflows' },
  { prefix: '/layers/', feature: 'layers' },
  { prefix: '/views/', feature: 'views' },
  { prefix: '/finalviews/', feature: 'finalviews' },
  { prefix: '/portals/', feature: 'portals' },
  { prefix: '/addons/', feature: 'addons' },
  { prefix: '/groups/', feature: 'administration' },
  { prefix: '/users/', feature: 'administration' },
  { prefix: '/sessions/', feature: 'administration' },
  { prefix: '/events/', feature: 'events' },
  { prefix: '/about/', feature: 'about' },
  { prefix: '/analytics/', feature: 'analytics' },
  { prefix: '/library/', feature: 'library' },
];

export function featureOf(path: string): string | undefined {
  const p = path.endsWith('/') ? path : `${path}/`;
  return SPEC_ROUTE_FEATURES.find((r) => p.startsWith(r.prefix))?.feature;
}

/** spec 000 §1: the main menu, in this order; each entry is live once a plugin serves its route. */
export const MAIN_MENU = [
  { id: 'core.magazine', label: 'core:menu.magazine', path: '/depots/', icon: 'box', order: 10 },
  { id: 'core.switchboards', label: 'core:menu.switchboards', path: '/switchboards/', icon: 'flow-branch', order: 20 },
  { id: 'core.workflows', label: 'core:menu.workflows', path: '/workflows/', icon: 'flow-linear', order: 30 },
  { id: 'core.layers', label: 'core:menu.layers', path: '/layers/', icon: 'layers', order: 40 },
  { id: 'core.views', label: 'core:menu.views', path: '/views/', icon: 'globe', order: 50 },
  { id: 'core.apps', label: 'core:menu.apps', path: '/addons/', icon: 'application', order: 60 },
] as const;

/** spec 000 §9: the sidebar is docked from this viewport width and is this wide. */
export const SIDEBAR_DOCK_MIN_WIDTH = 1455;
export const SIDEBAR_WIDTH = 285;
