/** Shapes of the HTTP API shared by server, SDK and browser (spec 000 §3, §7). */

export interface ListMeta {
  /** Where the page starts in the list; null on a page asked behind a cursor (`after`). */
  offset: number | null;
  limit: number;
  /** The number of objects in the whole list; null when the client asked with `count=false`. */
  total_count: number | null;
  /**
   * The address of the next page (the same query behind this page's last object, `after=<cursor>`);
   * null on the last page. Lists that page only by offset leave it out.
   */
  next?: string | null;
}

export interface ListResponse<T> {
  objects: T[];
  meta: ListMeta;
}

/** Every error reply: a human reason in the user's language and a machine-readable code. */
export interface ErrorBody {
  status: 'error';
  reason: string;
  code?: string;
  field?: string;
}

export const EVENT_KEYS = ['store', 'update', 'create', 'delete', 'favor', 'unfavor'] as const;
export type EventKey = (typeof EVENT_KEYS)[number];

export interface EventObject {
  id: number;
  resource_uri: string;
  key: EventKey;
  user: string | null;
  user_name: string | null;
  content_object: string | null;
  content_kind: string;
  /** The kind's name in the caller's language. */
  content_kind_label?: string;
  content_repr: string;
  metadata: Record<string, unknown>;
  created: string;
}

export interface PermissionEntry {
  user?: string;
  group?: string;
  perms: string[];
}

export interface BackendConfig {
  default_base_layer: string | null;
  base_map_tile_url: string | null;
  source_projection: string;
  layer_types: Record<string, string>;
  auth: {
    is_authenticated: boolean;
    is_superuser: boolean;
    user: string | null;
    username: string | null;
    display_name: string | null;
    language: string;
    /** The superuser acting as this user (impersonation, issue 19); null otherwise. */
    impersonator?: { user: string; display_name: string } | null;
    /**
     * The caller's named permissions, own and through groups (spec 002 §6); a superuser holds every
     * one (ConfigStore.hasPermission). Empty when signed out.
     */
    permissions?: string[];
  };
  /**
   * Whether the server can send account mail (SMTP, sender and public address configured): the
   * user editor offers 'Send invitation' and the login page 'Forgot password?' only then.
   */
  account_mail?: boolean;
  components: Record<string, boolean>;
  plugins: string[];
  licence: { state: string; development: boolean; expires: string | null; licensee: string | null };
  documentation: Record<string, { manual: string; tutorials: string }>;
  /** Viewer address templates by kind (layer, view, portal, finalview, switchboard) with `{id}`/`{slug}`. */
  viewer_urls?: Record<string, string>;
  /** Analytics call addresses by name (`visitors_for_view` with `{id}`, spec 002 §7); signed-in users only. */
  analytics_urls?: Record<string, string>;
  /** Service address templates of a layer by service (geojson, wfs, wms, wmts_kvp, wmts_rest) with `{name}`. */
  service_urls?: Record<string, string>;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 1000;

/** The API call statistics of a user (spec 002 §3; decision 0044). */
export const API_CALLS_PATH = '/api/v2/analytics/api-calls';

/** One row of GET /api/v2/analytics/api-calls: one month, route template and status code. */
export interface ApiCallStatistic {
  month: string;
  path: string;
  status_code: number;
  count: number;
  p50_duration_ms: number;
  p95_duration_ms: number;
}
