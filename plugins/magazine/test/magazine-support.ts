import type { AuthUser } from '@werkbank/sdk/node';
import { expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';

export const FOLDERS = '/api/v1/depotfolder/';
export const DEPOTS = '/api/v1/depot/';

export interface Moment {
  id: number;
  resource_uri: string;
  depot: string;
  status: 'open' | 'final' | 'approved';
  origin: string;
  temporary: boolean;
  message: string;
  size: number;
  persistent_size: number;
  user: string | null;
  user_name: string | null;
}

export interface Depot {
  id: number;
  resource_uri: string;
  name: string;
  content_type: string;
  folder: string | null;
  size: number;
  current_moment: Moment | null;
  moments: Moment[];
  permissions: Array<{ user?: string; group?: string; perms: string[] }>;
}

export interface Datum {
  id: number;
  index: number;
  resource_uri: string;
  moment_id: number;
  moment_size?: number;
  version: string;
  value?: unknown;
  [key: string]: unknown;
}

export interface Folder {
  id: number;
  resource_uri: string;
  name: string;
  parent: string | null;
  full_path: string;
}

let seq = 0;

export async function newFolder(c: Client, name: string, parent?: Folder): Promise<Folder> {
  return expectStatus<Folder>(await c.post(FOLDERS, { name, parent: parent?.resource_uri ?? null }), 201);
}

export async function newDepot(c: Client, type: string, fields: Record<string, unknown> = {}): Promise<Depot> {
  return expectStatus<Depot>(await c.post(DEPOTS, { name: `depot ${++seq}`, content_type: type, ...fields }), 201);
}

export async function addDatum(c: Client, depot: Depot, fields: Record<string, unknown>, momentId?: number): Promise<Datum> {
  const q = momentId ? `?moment_id=${momentId}` : '';
  return expectStatus<Datum>(await c.post(`/api/v1/datum/create-in-depot/${depot.id}/${q}`, fields), 201);
}

/** The values of a depot's snapshot at a moment (or the head), in datum order. */
export async function valuesAt(c: Client, depot: Depot, momentId?: number): Promise<unknown[]> {
  const url = momentId ? `/api/v1/datum/by-moment/${momentId}/?limit=1000` : `/api/v1/datum/by-depot/${depot.id}/?limit=1000`;
  return expectStatus<{ objects: Datum[] }>(await c.get(url), 200).objects.map((d) => d.value);
}

export async function headOf(c: Client, depot: Depot): Promise<Moment> {
  return expectStatus<Depot>(await c.get(depot.resource_uri), 200).current_moment!;
}

/** The id of the test server's administrator. */
export async function adminId(t: TestServer): Promise<number> {
  const [{ id }] = (await t.server.db.dataSource.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
    t.server.config.adminUsername,
  ])) as { id: number }[];
  return id;
}

/**
 * The administrator of a test server three ways: an API client, the signed-in user the server's
 * DepotAccess takes (as a switchboard function would hand it on), and that DepotAccess.
 */
export async function adminWithDepotAccess(t: TestServer): Promise<{ admin: Client; adminUser: AuthUser; access: DepotAccess }> {
  const admin = await t.admin();
  const adminUser = (await t.server.accounts.loadAuthUser(await adminId(t)))!;
  return { admin, adminUser, access: t.server.kernel.container.get<DepotAccess>(DepotAccess) };
}
