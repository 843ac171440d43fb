import type { PortalLayer, PortalView } from './portal-entries';

/** A portal as `/api/v1/portal/{id}/` answers it (spec 002 §3). */
export interface Portal {
  id: number;
  resource_uri: string;
  name: string;
  slug: string;
  attr: Record<string, unknown>;
  public: boolean;
  layers: PortalLayer[];
  views: PortalView[];
  permissions?: Array<{ user?: string; group?: string; perms: string[] }>;
  user: string | null;
  owner?: string | null;
  favored?: boolean;
  access?: string[];
  created: string;
  modified: string;
}

export const PORTAL_PATH = '/api/v1/portal/';
export const PORTALS_ROUTE = '/portals/';
export const portalEditRoute = (id: number | string) => `/portals/edit/${id}`;
/** The public page of a portal (spec 000 §2). */
export const portalPageAddress = (slug: string) => `/portal/${encodeURIComponent(slug)}/`;

/** Moves entry `index` of a list one place up or down (nothing at either end); orders follow the list. */
export function shifted<T extends { order: number }>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const out = [...list];
  [out[index], out[to]] = [out[to], out[index]];
  return out.map((e, i) => ({ ...e, order: i }));
}
