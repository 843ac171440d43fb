import type { PermissionEntry } from '@werkbank/sdk';

/** Addresses of the Magazine API (docs/api.md "The Magazine"). */
export const DEPOT_PATH = '/api/v1/depot/';
export const FOLDER_PATH = '/api/v1/depotfolder/';
export const FOLDER_TREE_PATH = '/api/v1/depotfoldertree/';
export const MOMENT_PATH = '/api/v1/moment/';
export const DATUM_PATH = '/api/v1/datum/';
export const TYPE_PATH = '/api/v1/type/';
export const UPLOAD_RESET_PATH = '/magazine/upload-reset/';
/**
 * The depots directly in a folder; `folder=` empty is the root. The parameter is part of the
 * path because the API client drops empty query values.
 */
export const byFolderPath = (folderId: number | undefined) => `${DEPOT_PATH}by-folder/?folder=${folderId ?? ''}`;
export const uploadFilePath = (uploadId: string | number) => `/magazine/upload-file/${uploadId}/`;

/** Browser routes of spec 000 §2. */
export const depotRoute = (depotId: number, momentId?: number) =>
  momentId === undefined ? `/depot/${depotId}/` : `/depot/${depotId}/moment/${momentId}`;
export const folderRoute = (folderId: number | null | undefined) => (folderId ? `/depotfolder/${folderId}` : '/depots/');

export type MomentStatus = 'open' | 'final' | 'approved';

export interface Moment {
  id: number;
  resource_uri: string;
  depot: string;
  created: string;
  user: string | null;
  user_name?: string | null;
  status: MomentStatus;
  origin: string;
  temporary: boolean;
  message: string;
  size: number;
  persistent_size: number;
}

export interface Depot {
  id: number;
  resource_uri: string;
  name: string;
  description?: string;
  /** A type address `/api/v1/type/{name}/`. */
  content_type: string;
  folder: string | null;
  metadata: Record<string, unknown> | null;
  style_depot: string | null;
  owner?: string | null;
  permissions?: PermissionEntry[];
  /** What the caller may do with it: `['read']` or `['read', 'write']` (docs/api.md "Objects"). */
  access?: string[];
  favored?: boolean;
  created?: string;
  modified?: string;
  size?: number;
  current_moment?: Moment | null;
  approved_moment?: number | null;
}

export interface DepotFolder {
  id: number;
  resource_uri: string;
  name: string;
  parent: string | null;
  full_path?: string;
  owner?: string | null;
  permissions?: PermissionEntry[];
  /** What the caller may do with it (docs/api.md "Objects"); the folder tree does not carry it. */
  access?: string[];
}

/** A node of GET /api/v1/depotfoldertree/. */
export interface FolderNode {
  id: number;
  name: string;
  resource_uri: string;
  parent: string | null;
  full_path: string;
  depot_count: number;
  /** What the caller may do with the folder (as in every object reply). */
  access?: string[];
  children: FolderNode[];
}

/** A datum: the envelope fields plus the fields of its type (docs/api.md "Datums"). */
export interface Datum {
  id: number;
  index: number;
  resource_uri: string;
  moment_id: number;
  /** Opaque: send it back as read (the server replies a string). */
  version: string | number;
  depot: string;
  content_type: string;
  text_repr: string;
  [field: string]: unknown;
}

/** The reply of a datum write: `moment_id` is the depot's head after the write. */
export interface DatumWriteReply {
  moment_id: number;
  moment_size?: number;
}

/** A type of GET /api/v1/type/. */
export interface TypeInfo {
  name: string;
  base: string | null;
  base_chain: string[];
  resource_uri: string;
}

/** The type name of a type address or name: `/api/v1/type/file/` → `file`. */
export const typeNameOf = (contentType: string) => contentType.replace(/^\/api\/v1\/type\//, '').replace(/\/$/, '');

/** The id at the end of a resource address: `/api/v1/depotfolder/7/` → 7. */
export const idOf = (address: string | null | undefined): number | undefined => {
  const m = /\/(\d+)\/?$/.exec(address ?? '');
  return m ? Number(m[1]) : undefined;
};

/**
 * True when the caller may change `obj`: its reply's `access` includes 'write' (docs/api.md
 * "Objects"). Without `access` only a new object (no id yet, the caller is creating it) counts as
 * writable; a stored object without it, or none at all, does not — screens offer only what will
 * succeed.
 */
export const mayWrite = (obj: { id?: number; access?: readonly string[] } | null | undefined): boolean =>
  !!obj && (obj.access ? obj.access.includes('write') : obj.id === undefined);
