import {
  ApiError,
  BLUEPRINT_ICON_NAMES,
  returnedRows,
  type SelectQueryBuilder,
  type ResourceDefinition,
  type ResourceRequest,
  type ResourceServices,
  type Row,
} from '@werkbank/sdk/node';
import { TAG_FIELDS, TAGS_PATH, tagChangeRefusal } from '../common/tag-rules';

/** Splits `a,b` of resource addresses; addresses themselves contain no commas. */
function addresses(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Resolves a taggable object the caller may change; 400/404/403 otherwise. */
async function writableTarget(address: string, services: ResourceServices, req: ResourceRequest) {
  const found = services.resolveAddress(address);
  if (!found || !found.def.taggable)
    throw ApiError.badRequest('not_taggable', 'tags:errors.not_taggable', { address }, 'resource_ids');
  services.checkRealm(found.def, req);
  const row = await services.loadReadable(found.def, found.id, req);
  if (!row) throw ApiError.notFound();
  if (!(await services.mayWrite(found.def, row, req))) throw ApiError.forbidden('permission_denied', 'errors.permission_denied');
  return { def: found.def, row };
}

/** Tags at /api/v2/backend/tags/ (spec 002 §7: tag references use /api/v2/backend/tags/{id}). */
export const tagResource: ResourceDefinition = {
  id: 'tags.tag',
  kind: 'tag',
  path: TAGS_PATH,
  table: 'werkbank_tag',
  component: 'tags',
  label: { de: 'den Tag', en: 'tag' },
  defaultOrder: 'name',
  description: 'Tags. Only superusers change or delete user tags; system tags are never changed or deleted.',
  fields: {
    ...TAG_FIELDS,
    // The icon list stays on the server (it is large): the browser offers TAG_ICONS.
    icon: {
      ...TAG_FIELDS.icon,
      validate: (v) => (typeof v === 'string' && BLUEPRINT_ICON_NAMES.has(v) ? undefined : 'tags:errors.icon'),
    },
  },
  queryParams: {
    /** Tags used on objects of one kind (the sidebar tag list of a realm). */
    realm: (qb, value, req) => {
      const def = req.services.definitions().find((d) => d.kind === value && d.taggable);
      if (!def) throw ApiError.badRequest('invalid_parameter', 'tags:errors.not_a_realm', { realm: value }, 'realm');
      const sub = req.manager
        .createQueryBuilder()
        .from('werkbank_tag_assignment', 'ra')
        .innerJoin(def.table, 'o', 'o.id = ra.object_id')
        .select('ra.tag_id')
        .where('ra.kind = :realmKind', { realmKind: def.kind }) as unknown as SelectQueryBuilder<Row>;
      req.services.applyReadable(sub, def, req, 'o');
      qb.andWhere(`t.id IN (${sub.getQuery()})`, sub.getParameters());
    },
  },
  namedFilters: {
    system: (qb) => qb.andWhere(`t.intent = 'system'`),
    user: (qb) => qb.andWhere(`t.intent = 'user'`),
  },
  hooks: {
    beforeCreate(values, req) {
      if (values.intent === 'system' && !req.user.isSuperuser)
        throw ApiError.forbidden('permission_denied', 'tags:errors.system_create');
      values.created_by = req.user.id;
    },
    checkWrite: (row, req) => tagChangeRefusal(String(row.intent), req.user.isSuperuser),
    /**
     * counts: objects per kind carrying the tag — for callers who are not superusers only the
     * objects they may read, so counts reveal nothing private.
     */
    async serialize(rows, out, req) {
      const tagIds = rows.map((r) => r.id);
      const counts: { tag_id: number; kind: string; n: number }[] = [];
      for (const def of req.services.definitions().filter((d) => d.taggable)) {
        const qb = req.manager
          .createQueryBuilder()
          .from('werkbank_tag_assignment', 'ta')
          .innerJoin(def.table, 'o', 'o.id = ta.object_id')
          .select('ta.tag_id', 'tag_id')
          .addSelect('count(*)::int', 'n')
          .where('ta.kind = :countKind AND ta.tag_id = ANY(:countTags)', { countKind: def.kind, countTags: tagIds })
          .groupBy('ta.tag_id') as unknown as SelectQueryBuilder<Row>;
        req.services.applyReadable(qb, def, req, 'o');
        for (const c of await qb.getRawMany<{ tag_id: number; n: number }>()) counts.push({ ...c, kind: def.kind });
      }
      out.forEach((o, i) => {
        o.counts = Object.fromEntries(counts.filter((c) => c.tag_id === rows[i].id).map((c) => [c.kind, c.n]));
      });
    },
  },
  actions: [
    {
      // spec 000 §7: PATCH {tag}assign-to?resource_ids=a,b
      name: 'assign-to',
      method: 'PATCH',
      detail: true,
      needs: 'read',
      async handler({ row, query, req, services }) {
        const targets = addresses(query.resource_ids);
        if (!targets.length) throw ApiError.badRequest('invalid_parameter', 'tags:errors.no_targets', {}, 'resource_ids');
        let assigned = 0;
        for (const address of targets) {
          const { def, row: target } = await writableTarget(address, services, req);
          const inserted = (await req.manager.query(
            `INSERT INTO werkbank_tag_assignment (tag_id, kind, object_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING tag_id`,
            [row!.id, def.kind, target.id],
          )) as unknown[];
          if (inserted.length) {
            assigned++;
            await services.recordEvent(def, 'update', target as Row, req, { tagged: row!.name, tag: `${TAGS_PATH}${row!.id}/` });
          }
        }
        return { status: 'ok', assigned };
      },
    },
    {
      // spec 000 §7: PATCH {tag}remove_from?object=...
      name: 'remove_from',
      method: 'PATCH',
      detail: true,
      needs: 'read',
      async handler({ row, query, req, services }) {
        const targets = addresses(query.object);
        if (!targets.length) throw ApiError.badRequest('invalid_parameter', 'tags:errors.no_targets', {}, 'object');
        let removed = 0;
        for (const address of targets) {
          const { def, row: target } = await writableTarget(address, services, req);
          const n = returnedRows(
            await req.manager.query(
              `DELETE FROM werkbank_tag_assignment WHERE tag_id = $1 AND kind = $2 AND object_id = $3 RETURNING tag_id`,
              [row!.id, def.kind, target.id],
            ),
          ).length;
          if (n) {
            removed++;
            await services.recordEvent(def, 'update', target as Row, req, {
              untagged: row!.name,
              tag: `${TAGS_PATH}${row!.id}/`,
            });
          }
        }
        return { status: 'ok', removed };
      },
    },
  ],
};
