import { EVENT_KEYS, userDisplayName, type NamedUser, type ResourceDefinition } from '@werkbank/sdk/node';

/** The activity feed (spec 000 §3 "Event"): read-only; written by the resource layer. */
export const eventResource: ResourceDefinition = {
  id: 'events.event',
  kind: 'event',
  table: 'werkbank_event',
  component: 'events',
  readOnly: true,
  events: false,
  defaultOrder: '-id',
  description: 'Event-feed entries, newest first. Filters: user, key, content_kind.',
  fields: {
    key: { type: 'string', enum: EVENT_KEYS, filter: true, readOnly: true },
    user: { type: 'ref', column: 'user_id', refKind: 'user', filter: true, nullable: true, readOnly: true },
    content_kind: { type: 'string', column: 'kind', filter: true, readOnly: true },
    content_object: { type: 'string', column: 'object_uri', nullable: true, readOnly: true },
    content_repr: { type: 'string', column: 'object_repr', search: true, readOnly: true },
    object_id: { type: 'int', nullable: true, readOnly: true, hidden: true },
    object_owner_id: { type: 'int', nullable: true, readOnly: true, hidden: true },
    metadata: { type: 'json', readOnly: true },
    created: { type: 'datetime', readOnly: true, order: true },
  },
  /**
   * Callers who are not superusers see their own entries, entries of objects they own, of kinds
   * without object permissions, and of objects they hold a grant on.
   */
  readFilter(qb, req, services) {
    const guarded = services.definitions().filter((d) => d.objectPermissions);
    const perms = guarded.flatMap((d) => Object.values(d.objectPermissions!).filter(Boolean)) as string[];
    qb.andWhere(
      `(t.user_id = :evUser OR t.object_owner_id = :evUser OR NOT (t.kind = ANY(:evGuarded))
        OR EXISTS (SELECT 1 FROM werkbank_object_permission ep WHERE ep.kind = t.kind AND ep.object_id = t.object_id
             AND ep.permission = ANY(:evPerms) AND (ep.user_id = :evUser OR ep.group_id = ANY(:evGroups))))`,
      { evUser: req.user.id, evGuarded: guarded.map((d) => d.kind), evPerms: perms, evGroups: req.user.groupIds },
    );
  },
  hooks: {
    async serialize(rows, out, req) {
      const ids = [...new Set(rows.map((r) => r.user_id).filter((v): v is number => typeof v === 'number'))];
      const users = (await req.manager.query(`SELECT id, username, first_name, last_name FROM werkbank_user WHERE id = ANY($1)`, [
        ids,
      ])) as Array<NamedUser & { id: number }>;
      const labels = new Map(req.services.definitions().map((d) => [d.kind, d.label]));
      out.forEach((o, i) => {
        const u = users.find((x) => x.id === rows[i].user_id);
        o.user_name = u ? userDisplayName(u) : null;
        const label = labels.get(String(rows[i].kind));
        o.content_kind_label = label?.[req.lang] ?? label?.en ?? rows[i].kind;
      });
    },
  },
};
