import {
  ApiError,
  NamedPermission,
  requireNamedPermission,
  type ResourceDefinition,
  type ResourceRequest,
  type Row,
} from '@werkbank/sdk/node';
import { changesPublication } from '../common/views-api';
import { parsed, refuseTakenSlug } from './view-rows';
import { VIEW_FIELDS } from '../common/view-fields';
import { viewImageAddress } from '../common/view-image';
import {
  checkConfig,
  checkHome,
  checkTrees,
  layerIdOf,
  viewLayers,
  type ViewLayerGroup,
  type ViewProblem,
} from '../common/view-tree';

const fail = (p: ViewProblem | undefined) => {
  if (p) throw ApiError.badRequest('invalid_field', `views:${p.key}`, p.params ?? {}, p.field);
};

/**
 * Checks and completes a create's values or an update's changes (`row`: the stored view): the
 * trees with their defaults, every layer they name readable by the caller (its type and time range
 * copied into the entry), the home position, the configuration, a free short name, and the
 * publication switch only for holders of publish_view (spec 002 §4).
 */
async function checkView(values: Record<string, unknown>, req: ResourceRequest, row?: Row): Promise<void> {
  if (changesPublication(values, row)) requireNamedPermission(req.user, NamedPermission.publishView);
  if (!row || 'layergroup' in values || 'poigroup' in values) {
    const trees = checkTrees(parsed(values.layergroup ?? row?.layergroup ?? {}), parsed(values.poigroup ?? row?.poigroup ?? {}));
    fail(trees.problem);
    if (!trees.problem) {
      await readLayers(trees.layergroup, req);
      values.layergroup = JSON.stringify(trees.layergroup);
      values.poigroup = JSON.stringify(trees.poigroup);
    }
  }
  if ('home' in values) {
    const home = checkHome(parsed(values.home));
    fail(home.problem);
    if (!home.problem) values.home = home.home ? JSON.stringify(home.home) : null;
  }
  if (!row || 'config' in values) {
    const config = checkConfig(parsed(values.config));
    fail(config.problem);
    if (!config.problem) values.config = JSON.stringify(config.config);
  }
  if (row && 'image' in values) checkImage(values, row);
  await refuseTakenSlug(req, 'view', values.slug, row?.id);
}

/**
 * A change of `image` (decision 0092): the view's own image address keeps the uploaded image; any
 * other value (an external address, '') lets it go, and a trigger releases its blob to the sweep.
 * The own address without an uploaded image is refused: images are uploaded there, not named.
 */
function checkImage(values: Record<string, unknown>, row: Row): void {
  if (String(values.image ?? '').trim() === viewImageAddress(row.id)) {
    if (!row.image_blob) throw ApiError.badRequest('invalid_field', 'views:image.errors.upload_only', {}, 'image');
    delete values.image;
    return;
  }
  if (row.image_blob) Object.assign(values, { image_blob: null, image_size: 0, image_mime: '' });
}

/**
 * Every layer the tree names must be one the caller may read; its entry keeps the layer's type and
 * time range as they are now (the viewer draws by type and offers the range on its time slider).
 */
async function readLayers(tree: ViewLayerGroup, req: ResourceRequest): Promise<void> {
  const def = req.services.definitions().find((d) => d.kind === 'layer');
  const entries = viewLayers(tree);
  if (!entries.length) return;
  if (!def) throw ApiError.badRequest('invalid_field', 'views:errors.unknown_layer', { layer: entries[0].layer }, 'layergroup');
  const rows = new Map<number, Row | undefined>();
  for (const entry of entries) {
    const id = layerIdOf(entry.layer)!;
    if (!rows.has(id)) rows.set(id, await req.services.loadReadable(def, id, req));
    const layer = rows.get(id);
    if (!layer) throw ApiError.badRequest('invalid_field', 'views:errors.unknown_layer', { layer: entry.layer }, 'layergroup');
    entry.type = String(layer.type ?? entry.type);
    entry.layer_time_min = iso(layer.time_min);
    entry.layer_time_max = iso(layer.time_max);
  }
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string | Date).toISOString());

/** Views (spec 002 §3): owned, permissioned, taggable map scenes of layers, POIs and a start position. */
export const viewResource: ResourceDefinition = {
  id: 'views.view',
  kind: 'view',
  table: 'views_view',
  label: { de: 'die Ansicht', en: 'view' },
  defaultOrder: 'name',
  ownerColumn: 'owner_id',
  objectPermissions: { read: 'read_view', write: 'write_view' },
  publicColumn: 'public',
  taggable: true,
  description: 'Views: map scenes of layers in a layer tree, points of interest and tours, a start position and tool settings.',
  fields: VIEW_FIELDS,
  hooks: {
    async beforeCreate(values, req) {
      await checkView(values, req);
    },
    async beforeUpdate(row, changes, req) {
      await checkView(changes, req, row);
      changes.modified = new Date();
    },
  },
};
