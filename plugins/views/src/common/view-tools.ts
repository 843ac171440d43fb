import type { ViewConfig } from './view-tree';

/** The viewer's tools a view switches on or off (its configuration's `tools.{name}.enabled`; default on). */
export const VIEWER_TOOLS = ['measure', 'coordinates', 'share', 'fullscreen'] as const;
export type ViewerTool = (typeof VIEWER_TOOLS)[number];

export function toolEnabled(config: Pick<ViewConfig, 'tools'>, tool: ViewerTool): boolean {
  const entry = config.tools?.[tool] as { enabled?: unknown } | undefined;
  return entry?.enabled !== false;
}
