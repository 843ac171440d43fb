import {
  ApiError,
  NamedPermission,
  requireNamedPermission,
  type ResourceDefinition,
  type ResourceRequest,
  type Row,
} from '@werkbank/sdk/node';
import { changesPublication } from '@werkbank/plugin-views/api';
import { PORTAL_FIELDS } from '../common/portal-fields';
import {
  checkPortalLayers,
  checkPortalViews,
  portalLayerId,
  portalViewId,
  type PortalLayer,
  type PortalProblem,
  type PortalView,
} from '../common/portal-entries';

const fail = (p: PortalProblem | undefined) => {
  if (p) throw ApiError.badRequest('invalid_field', `portals:${p.key}`, p.params ?? {}, p.field);
};

/** A jsonb column's value as the resource layer hands it to hooks (JSON text) or as stored (parsed). */
const parsed = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** Refuses an entry naming an object of `kind` the caller may not read (or that does not exist). */
async function readable(req: ResourceRequest, kind: 'layer' | 'view', ids: Array<number | undefined>, field: string) {
  const def = req.services.definitions().find((d) => d.kind === kind);
  for (const [i, id] of ids.entries()) {
    if (id === undefined) continue;
    if (!def || !(await req.services.loadReadable(def, id, req)))
      throw ApiError.badRequest('invalid_field', `portals:errors.unknown_${kind}`, { id }, `${field}[${i}].${kind}`);
  }
}

/**
 * Checks and completes a create's values or an update's changes (`row`: the stored portal): the
 * layers and views cleaned as spec 002 §5 says and readable by the caller, the advanced settings an
 * object, a free short name, the publication switch only for holders of publish_view.
 */
async function checkPortal(values: Record<string, unknown>, req: ResourceRequest, row?: Row): Promise<void> {
  if (changesPublication(values, row)) requireNamedPermission(req.user, NamedPermission.publishView);
  if ('layers' in values) {
    const { layers, problem } = checkPortalLayers(parsed(values.layers));
    fail(problem);
    await readable(
      req,
      'layer',
      layers.map((l) => portalLayerId(l.layer)),
      'layers',
    );
    values.layers = JSON.stringify(layers);
  }
  if ('views' in values) {
    const { views, problem } = checkPortalViews(parsed(values.views));
    fail(problem);
    await readable(
      req,
      'view',
      views.map((v) => (v.view ? portalViewId(v.view) : undefined)),
      'views',
    );
    values.views = JSON.stringify(views);
  }
  if ('attr' in values) {
    const attr = parsed(values.attr ?? {});
    if (!attr || typeof attr !== 'object' || Array.isArray(attr) || JSON.stringify(attr).length > 100_000)
      throw ApiError.badRequest('invalid_field', 'portals:errors.attr', {}, 'attr');
  }
  const slug = values.slug;
  if (typeof slug === 'string' && slug !== '') {
    const [taken] = (await req.manager.query(`SELECT id FROM portals_portal WHERE slug = $1 AND id <> $2 LIMIT 1`, [
      slug,
      row?.id ?? 0,
    ])) as unknown[];
    if (taken) throw ApiError.badRequest('slug_taken', 'portals:errors.slug_taken', { slug }, 'slug');
  }
}

/** Portals (spec 002 §3): owned, permissioned landing pages of views (ours and external) and layers. */
export const portalResource: ResourceDefinition = {
  id: 'portals.portal',
  kind: 'portal',
  table: 'portals_portal',
  label: { de: 'das Portal', en: 'portal' },
  defaultOrder: 'name',
  ownerColumn: 'owner_id',
  objectPermissions: { read: 'read_portal', write: 'write_portal' },
  publicColumn: 'public',
  taggable: true,
  description: 'Portals: landing pages that list views (also external ones) and layers with their descriptions.',
  fields: PORTAL_FIELDS,
  hooks: {
    async beforeCreate(values, req) {
      await checkPortal(values, req);
    },
    async beforeUpdate(row, changes, req) {
      await checkPortal(changes, req, row);
      changes.modified = new Date();
    },
    async serialize(rows, out) {
      // Each entry names its portal (spec 002 §3: portal layer and portal view have `portal`).
      out.forEach((o, i) => {
        const portal = o.resource_uri;
        o.layers = ((parsed(rows[i].layers) ?? []) as PortalLayer[]).map((l) => ({ ...l, portal }));
        o.views = ((parsed(rows[i].views) ?? []) as PortalView[]).map((v) => ({ ...v, portal }));
      });
    },
  },
};
