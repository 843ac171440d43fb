import type { CameraPosition, PoiGroup, ViewConfig, ViewLayerGroup } from './view-tree';

/** A view as `/api/v1/view/{id}/` answers it (spec 002 §3). */
export interface View {
  id: number;
  resource_uri: string;
  name: string;
  subline: string;
  description: string;
  slug: string;
  public: boolean;
  image: string;
  home: CameraPosition | null;
  layergroup: ViewLayerGroup;
  poigroup: PoiGroup;
  config: ViewConfig;
  permissions?: Array<{ user?: string; group?: string; perms: string[] }>;
  user: string | null;
  owner?: string | null;
  tags?: Array<{ id: number; name: string; color?: string; icon?: string; resource_uri: string }>;
  favored?: boolean;
  access?: string[];
  created: string;
  modified: string;
}

/** The fields the view editor sends when changed. */
export const VIEW_EDITABLE = [
  'name',
  'subline',
  'description',
  'slug',
  'image',
  'home',
  'layergroup',
  'poigroup',
  'config',
] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The PATCH body of an edit: the changed fields; the publication switch only when it changed (only
 * holders of publish_view may send it); permissions only for who may grant them.
 */
export function editedView(loaded: View, draft: View, mayGrant: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of VIEW_EDITABLE) if (!same(loaded[key], draft[key])) out[key] = draft[key];
  if (loaded.public !== draft.public) out.public = draft.public;
  if (mayGrant && !same(loaded.permissions, draft.permissions)) out.permissions = draft.permissions;
  return out;
}
