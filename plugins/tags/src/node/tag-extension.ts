import {
  ApiError,
  inject,
  injectable,
  ComponentGate,
  type RegistrySink,
  type ResourceExtension,
  type ResourceExtensionContribution,
} from '@werkbank/sdk/node';
import { TAGS_PATH } from '../common/tag-rules';

let seq = 0;

/**
 * Gives every taggable kind a `tags` field and the `?tag=` list filter (ids, comma separated:
 * objects with every one of them). Removes an object's assignments when it is deleted.
 */
@injectable()
export class TagResourceExtension implements ResourceExtensionContribution {
  @inject(ComponentGate) protected readonly gate!: ComponentGate;

  registerResourceExtensions(registry: RegistrySink<ResourceExtension>): void {
    registry.add({
      id: 'tags.taggable',
      queryParams: {
        tag: (qb, def, value) => {
          if (!def.taggable) throw ApiError.badRequest('unknown_filter', 'errors.unknown_filter', { name: 'tag' }, 'tag');
          if (!this.gate.isEnabled('tags'))
            throw new ApiError(403, 'component_disabled', 'errors.component_disabled', { name: 'tags' });
          for (const raw of value.split(',')) {
            if (!/^\d{1,9}$/.test(raw.trim())) throw ApiError.badRequest('invalid_parameter', 'tags:errors.tag_param', {}, 'tag');
            const n = ++seq;
            qb.andWhere(
              `EXISTS (SELECT 1 FROM werkbank_tag_assignment ta${n} WHERE ta${n}.tag_id = :tag${n} AND ta${n}.kind = :tagKind${n} AND ta${n}.object_id = t.id)`,
              { [`tag${n}`]: Number(raw), [`tagKind${n}`]: def.kind },
            );
          }
        },
      },
      serialize: async (def, rows, out, req) => {
        if (!def.taggable || !this.gate.isEnabled('tags')) return;
        const tags = (await req.manager.query(
          `SELECT a.object_id, t.id, t.name, t.color, t.icon, t.intent FROM werkbank_tag_assignment a
           JOIN werkbank_tag t ON t.id = a.tag_id WHERE a.kind = $1 AND a.object_id = ANY($2) ORDER BY t.name`,
          [def.kind, rows.map((r) => r.id)],
        )) as Array<{ object_id: number; id: number; name: string; color: string; icon: string; intent: string }>;
        out.forEach((o, i) => {
          o.tags = tags
            .filter((t) => t.object_id === rows[i].id)
            .map((t) => ({
              id: t.id,
              name: t.name,
              color: t.color,
              icon: t.icon,
              intent: t.intent,
              resource_uri: `${TAGS_PATH}${t.id}/`,
            }));
        });
      },
      onDelete: async (def, row, req) => {
        if (def.taggable)
          await req.manager.query(`DELETE FROM werkbank_tag_assignment WHERE kind = $1 AND object_id = $2`, [def.kind, row.id]);
      },
    });
  }
}
