import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { AuthUser, ResourceDefinition, Row } from '@werkbank/sdk/node';

export type Access = 'read' | 'write' | 'execute';

/** Short permission names (read, write, execute) to the kind's named permissions and back. */
export function permissionName(def: ResourceDefinition, access: Access): string | undefined {
  return def.objectPermissions?.[access];
}

/** Named permissions that grant `access`: write and execute imply read. */
export function grantingPermissions(def: ResourceDefinition, access: Access): string[] {
  const p = def.objectPermissions;
  if (!p) return [];
  if (access === 'read') return [p.read, p.write, ...(p.execute ? [p.execute] : [])];
  if (access === 'write') return [p.write];
  return p.execute ? [p.execute] : [p.write];
}

let paramSeq = 0;

/** True when the kind publishes objects by a column and this one is published (readable by all signed in). */
function isPublished(def: ResourceDefinition, row: Row): boolean {
  return !!def.publicColumn && row[def.publicColumn] === true;
}

/**
 * Object-level permissions (DESIGN §3): superusers may do everything; the owner always all;
 * otherwise a grant to the user or one of the user's groups. Kinds without object permissions are
 * readable by every signed-in user; their writes are decided by the kind's hooks.
 */
export class PermissionService {
  /** Narrows a list query to the objects the user may read. */
  applyReadable(qb: SelectQueryBuilder<Row>, def: ResourceDefinition, user: AuthUser, alias = 't'): void {
    if (user.isSuperuser) return;
    if (def.superuserOnly) {
      qb.andWhere('false');
      return;
    }
    if (!def.objectPermissions) return;
    const n = ++paramSeq;
    const owner = def.ownerColumn ? `${alias}.${qb.escape(def.ownerColumn)} = :uid${n} OR ` : '';
    const published = def.publicColumn ? `${alias}.${qb.escape(def.publicColumn)} = true OR ` : '';
    qb.andWhere(
      `(${owner}${published}EXISTS (SELECT 1 FROM werkbank_object_permission p${n}
         WHERE p${n}.kind = :kind${n} AND p${n}.object_id = ${alias}.id AND p${n}.permission = ANY(:perms${n})
           AND (p${n}.user_id = :uid${n} OR p${n}.group_id = ANY(:gids${n}))))`,
      {
        [`uid${n}`]: user.id,
        [`kind${n}`]: def.kind,
        [`perms${n}`]: grantingPermissions(def, 'read'),
        [`gids${n}`]: user.groupIds,
      },
    );
  }

  async has(m: EntityManager, def: ResourceDefinition, row: Row, user: AuthUser, access: Access): Promise<boolean> {
    if (user.isSuperuser) return true;
    if (def.superuserOnly) return false;
    if (def.ownerColumn && row[def.ownerColumn] === user.id) return true;
    if (!def.objectPermissions) return access === 'read' || !def.ownerColumn;
    if (access === 'read' && isPublished(def, row)) return true;
    const [r] = (await m.query(
      `SELECT 1 FROM werkbank_object_permission
       WHERE kind = $1 AND object_id = $2 AND permission = ANY($3) AND (user_id = $4 OR group_id = ANY($5)) LIMIT 1`,
      [def.kind, row.id, grantingPermissions(def, access), user.id, user.groupIds],
    )) as unknown[];
    return !!r;
  }

  /** What the user may do with each of the rows (one query for all of them), as `has` decides it. */
  async accessOfRows(m: EntityManager, def: ResourceDefinition, rows: Row[], user: AuthUser): Promise<Map<number, Access[]>> {
    const kinds: Access[] = def.objectPermissions?.execute ? ['read', 'write', 'execute'] : ['read', 'write'];
    const out = new Map<number, Access[]>();
    const open: Row[] = [];
    for (const row of rows) {
      if (user.isSuperuser || (def.ownerColumn && row[def.ownerColumn] === user.id)) out.set(row.id, kinds);
      else if (def.superuserOnly) out.set(row.id, []);
      else if (!def.objectPermissions) out.set(row.id, def.ownerColumn ? ['read'] : kinds);
      else open.push(row);
    }
    if (open.length) {
      const granted = (await m.query(
        `SELECT object_id, permission FROM werkbank_object_permission
         WHERE kind = $1 AND object_id = ANY($2) AND (user_id = $3 OR group_id = ANY($4))`,
        [def.kind, open.map((r) => r.id), user.id, user.groupIds],
      )) as { object_id: number; permission: string }[];
      for (const row of open) {
        const names = new Set(granted.filter((g) => g.object_id === row.id).map((g) => g.permission));
        out.set(
          row.id,
          kinds.filter((a) => (a === 'read' && isPublished(def, row)) || grantingPermissions(def, a).some((n) => names.has(n))),
        );
      }
    }
    return out;
  }

  /** Grants as replied in `permissions`: [{user|group, perms: [read, write, ...]}]. */
  async grants(m: EntityManager, def: ResourceDefinition, ids: number[]): Promise<Map<number, unknown[]>> {
    const out = new Map<number, unknown[]>();
    if (!def.objectPermissions || !ids.length) return out;
    const rows = (await m.query(
      `SELECT object_id, user_id, group_id, permission FROM werkbank_object_permission
       WHERE kind = $1 AND object_id = ANY($2) ORDER BY id`,
      [def.kind, ids],
    )) as { object_id: number; user_id: number | null; group_id: number | null; permission: string }[];
    const short = Object.fromEntries(Object.entries(def.objectPermissions).map(([k, v]) => [v, k]));
    const byKey = new Map<string, { object_id: number; entry: { user?: string; group?: string; perms: string[] } }>();
    for (const r of rows) {
      const key = `${r.object_id}:${r.user_id ?? ''}:${r.group_id ?? ''}`;
      let e = byKey.get(key);
      if (!e) {
        e = {
          object_id: r.object_id,
          entry: r.user_id
            ? { user: `/api/v1/user/${r.user_id}/`, perms: [] }
            : { group: `/api/v1/group/${r.group_id}/`, perms: [] },
        };
        byKey.set(key, e);
      }
      e.entry.perms.push(short[r.permission] ?? r.permission);
    }
    for (const { object_id, entry } of byKey.values()) {
      if (!out.has(object_id)) out.set(object_id, []);
      out.get(object_id)!.push(entry);
    }
    return out;
  }

  /** Replaces the grants of one object. Entries are validated by the caller. */
  async replaceGrants(
    m: EntityManager,
    def: ResourceDefinition,
    id: number,
    entries: Array<{ userId?: number; groupId?: number; perms: Access[] }>,
  ): Promise<void> {
    await m.query(`DELETE FROM werkbank_object_permission WHERE kind = $1 AND object_id = $2`, [def.kind, id]);
    const rows = entries.flatMap((e) =>
      e.perms.map((p) => ({ user: e.userId ?? null, group: e.groupId ?? null, perm: permissionName(def, p) })),
    );
    if (!rows.length) return;
    await m.query(
      `INSERT INTO werkbank_object_permission (kind, object_id, user_id, group_id, permission)
       SELECT $1, $2, u, g, p FROM unnest($3::int[], $4::int[], $5::text[]) AS x(u, g, p)`,
      [def.kind, id, rows.map((r) => r.user), rows.map((r) => r.group), rows.map((r) => r.perm)],
    );
  }
}
