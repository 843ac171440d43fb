import { ApiError, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { LAYER_FIELDS } from '../common/layer-fields';
import { isLayerType, type LayerType } from '../common/layer-types';
import {
  checkAttr,
  checkAttributeFilters,
  checkBbox,
  checkSelectionFields,
  checkTimeRange,
  type LayerProblem,
} from '../common/layer-validation';
import { checkStyle } from '../common/style-validation';
import { cleanMetadata } from '../common/metadata';
import { checkTileSettings } from '../common/tile-settings';
import { checkStyleDatum } from './layer-style-source';
import { legendAddress, legendLayerId } from '../common/legend';
import { checkPileDepots, parsePiles, pilesJson, pilesOf, replacePiles } from './pile-store';
import { refuseMetalayerCycle } from './metalayer-cycles';
import type { LayersServices } from './layers-services';
import { templateSourceOf, type LayerTemplatesService } from './layer-templates-service';
import { layerFieldsOf } from '../common/layer-template';

const fail = (p: LayerProblem | undefined) => {
  if (p) throw ApiError.badRequest('invalid_field', p.key, p.params ?? {}, p.field);
};

/** A jsonb column's value as the resource layer hands it to hooks (JSON text) or as stored (parsed). */
const parsed = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/**
 * Checks the fields that depend on each other (type, attr, times) and the JSON fields' shapes;
 * `values` are column values of a create or the changes of an update, `row` the stored layer.
 */
async function checkLayer(
  services: LayersServices,
  values: Record<string, unknown>,
  req: ResourceRequest,
  row?: Row,
): Promise<void> {
  const type = String(values.type ?? row?.type ?? 'feature');
  if (!isLayerType(type)) throw ApiError.badRequest('invalid_field', 'layers:errors.type', { type }, 'type');
  if ('attr' in values || 'type' in values) {
    const { attr, problem } = checkAttr(parsed(values.attr ?? row?.attr ?? {}), type);
    fail(problem);
    values.attr = JSON.stringify(attr);
  }
  if ('selection_fields' in values) fail(checkSelectionFields(parsed(values.selection_fields)));
  if ('attribute_filters' in values) fail(checkAttributeFilters(parsed(values.attribute_filters)));
  if ('bbox' in values) fail(checkBbox(parsed(values.bbox)));
  if ('style' in values) fail(checkStyle(parsed(values.style)));
  if ('tile_settings' in values) {
    // Decision 0062: only pmtiles layers have tile settings; values equal to the defaults are not stored.
    const { settings, problem } = checkTileSettings(parsed(values.tile_settings));
    fail(problem);
    if (settings && type !== 'pmtiles')
      throw ApiError.badRequest('invalid_field', 'layers:tiles.errors.type', { type }, 'tile_settings');
    values.tile_settings = settings ? JSON.stringify(settings) : null;
  }
  // Decision 0068: a new link must name a style datum the caller may read; an unchanged one is kept.
  const link = values.style_datum_id;
  if (link !== undefined && link !== null && Number(link) !== Number(row?.style_datum_id ?? NaN)) {
    await checkStyleDatum(services.depots, (a, b) => services.types.isAssignable(a, b), req, Number(link));
  }
  if ('metadata' in values) {
    // spec 001 §5.1: empty values are omitted; none left → null.
    const metadata = cleanMetadata(parsed(values.metadata));
    if (metadata === undefined) throw ApiError.badRequest('invalid_field', 'layers:metadata.errors.shape', {}, 'metadata');
    values.metadata = metadata === null ? null : JSON.stringify(metadata);
  }
  if ('legend' in values) await checkLegend(values, req, row);
  const tmin = 'time_min' in values ? values.time_min : row?.time_min;
  const tmax = 'time_max' in values ? values.time_max : row?.time_max;
  fail(checkTimeRange(tmin, tmax));
  const slug = values.slug;
  if (typeof slug === 'string' && slug !== '') {
    const [taken] = (await req.manager.query(`SELECT id FROM layers_layer WHERE slug = $1 AND id <> $2 LIMIT 1`, [
      slug,
      row?.id ?? 0,
    ])) as unknown[];
    if (taken) throw ApiError.badRequest('slug_taken', 'layers:errors.slug_taken', { slug }, 'slug');
  }
}

/**
 * A write of `legend` (decision 0063): '' removes the uploaded legend; the layer's own legend
 * address or its stored value changes nothing; another layer's legend address that the caller may
 * read shares that legend's blob (a clone keeps its legend). A legend is otherwise uploaded
 * (`POST {layer}legend/`), so any other value is refused.
 */
async function checkLegend(values: Record<string, unknown>, req: ResourceRequest, row?: Row): Promise<void> {
  const v = String(values.legend ?? '').trim();
  if (v === '') {
    Object.assign(values, { legend: '', legend_blob: null, legend_size: 0 });
    return;
  }
  if (row && (v === row.legend || (row.legend_blob && v === legendAddress(row.id)))) {
    delete values.legend;
    return;
  }
  const source = legendLayerId(v);
  if (source === undefined) throw ApiError.badRequest('invalid_field', 'layers:legend.errors.upload_only', {}, 'legend');
  const def = req.services.definitions().find((d) => d.kind === 'layer')!;
  const from = await req.services.loadReadable(def, source, req);
  if (!from?.legend_blob) throw ApiError.badRequest('invalid_field', 'layers:legend.errors.unknown_source', {}, 'legend');
  Object.assign(values, { legend: '', legend_blob: from.legend_blob, legend_size: from.legend_size });
}

/** A new layer's fields: every writable field at its default, the type given, no piles or grants. */
export function newLayerTemplate(type: LayerType): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(LAYER_FIELDS) as [
    string,
    { default?: unknown; readOnly?: boolean; nullable?: boolean },
  ][]) {
    if (spec.readOnly) continue;
    out[name] = spec.default !== undefined ? spec.default : spec.nullable ? null : '';
  }
  return { ...out, type, layerpiles: [], permissions: [] };
}

/** Layers (spec 001 §3.1): typed, owned, permissioned, taggable; their piles stack depots. */
export function layerResource(services: LayersServices, templates: LayerTemplatesService): ResourceDefinition {
  return {
    id: 'layers.layer',
    kind: 'layer',
    table: 'layers_layer',
    label: { de: 'den Layer', en: 'layer' },
    defaultOrder: 'name',
    ownerColumn: 'owner_id',
    objectPermissions: { read: 'read_layer', write: 'write_layer' },
    publicColumn: 'public',
    taggable: true,
    description: 'Layers: depots stacked as layerpiles, with presentation, selection window, filters and permissions.',
    fields: LAYER_FIELDS,
    actions: [
      {
        // spec 000 §7 `GET {layer}create_layer/?layertype=`: a new, unsaved layer of the type with its
        // defaults; with `template` or `template_layer` (decision 0064) the template's type, time
        // range, attr and selection fields (a layertype given as well must be the template's).
        name: 'create_layer',
        method: 'GET',
        detail: false,
        async handler({ query, req }) {
          const source = templateSourceOf(query);
          const type = query.layertype || 'feature';
          if (!isLayerType(type))
            throw ApiError.badRequest('invalid_parameter', 'layers:errors.layertype_param', { type }, 'layertype');
          if (!source) return newLayerTemplate(type);
          const { template } = await templates.read(req, source);
          if (query.layertype && query.layertype !== template.layer_type)
            throw ApiError.badRequest(
              'template_type',
              'layers:templates.errors.layertype',
              { type: query.layertype, template_type: template.layer_type },
              'layertype',
            );
          return { ...newLayerTemplate(template.layer_type), ...layerFieldsOf(template) };
        },
      },
    ],
    hooks: {
      async beforeCreate(values, req) {
        await checkLayer(services, values, req);
      },
      async beforeUpdate(row, changes, req) {
        await checkLayer(services, changes, req, row);
        if (changes.type !== undefined && changes.type !== row.type) {
          // A new type must still fit the piles the layer has (those the caller can see).
          const ids = (await pilesOf(req, [row.id])).map((p) => p.depot_id);
          await checkPileDepots(req, changes.type as LayerType, ids, (a, b) => services.types.isAssignable(a, b), true);
          // Becoming a metalayer with the piles it has (a write that also sets piles is checked after it).
          if (changes.type === 'metalayer') await refuseMetalayerCycle(req, services.depots, row);
        }
        // spec 001 §3.1: the revision counts every change (piles and permissions too).
        changes.revision = Number(row.revision) + 1;
        changes.modified = new Date();
      },
      async afterWrite(row, virtuals, req) {
        if (virtuals.layerpiles === undefined) return;
        const piles = parsePiles(virtuals.layerpiles);
        const isAssignable = (a: string, b: string) => services.types.isAssignable(a, b);
        const depots = await checkPileDepots(
          req,
          String(row.type) as LayerType,
          piles.map((p) => p.depotId),
          isAssignable,
        );
        await replacePiles(req, row.id, piles, depots);
        if (row.type === 'metalayer') await refuseMetalayerCycle(req, services.depots, row);
      },
      async serialize(rows, out, req) {
        const piles = await pilesJson(
          req,
          await pilesOf(
            req,
            rows.map((r) => r.id),
          ),
          services.runs,
        );
        out.forEach((o, i) => {
          o.layerpiles = piles.filter((p) => p.layer === o.resource_uri);
          o.persistent_size = Number(rows[i].persistent_size ?? 0);
          o.tile_archive = parsed(rows[i].tile_archive ?? null);
          if (rows[i].legend_blob) o.legend = legendAddress(rows[i].id);
        });
      },
    },
  };
}
