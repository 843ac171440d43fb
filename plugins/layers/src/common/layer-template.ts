import type { DatumTypeDescriptor, JsonSchema } from '@werkbank/sdk';
import { LAYER_TYPES, ZOOM_KEYS, ZOOM_MAX, ZOOM_MIN, type LayerType } from './layer-types';
import { checkAttr, checkSelectionFields, checkTimeRange, SELECTION_FIELD_TYPES, type LayerProblem } from './layer-validation';
import { addAllAttributes } from './selection-fields';
import type { LayerAttribute, SelectionField } from './layers-api';

/**
 * Layer templates (spec 001 §3.1 "Layer template: layer_type, time_min, time_max, attr,
 * selection_fields, scope.selection_fields"; decision 0064): datums of the type `layertemplate`,
 * kept in depots like any datum and edited with the layer template editor (spec 001 §2.1). A new
 * layer or switchboard made from one takes its type, time range, zoom settings and selection
 * fields. `scope.selection_fields` says which selection fields a layer gets: `template` (the
 * template's, as they are) or `all_attributes` (the template's, then every other attribute of the
 * layer's piles, as 'Add all attributes' does).
 */
export const LAYER_TEMPLATE_TYPE = 'layertemplate';
export const SELECTION_SCOPES = ['template', 'all_attributes'] as const;
export type SelectionScope = (typeof SELECTION_SCOPES)[number];

export interface LayerTemplate {
  layer_type: LayerType;
  time_min: string | null;
  time_max: string | null;
  attr: Record<string, unknown>;
  selection_fields: SelectionField[];
  scope: { selection_fields: SelectionScope };
}

const TIME_OR_NULL: JsonSchema = { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] };
const ZOOM: JsonSchema = { anyOf: [{ type: 'integer', minimum: ZOOM_MIN, maximum: ZOOM_MAX }, { type: 'null' }] };

/** The datum fields of a layer template; a typo in a field name is refused and named. */
export const LAYER_TEMPLATE_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['layer_type', 'time_min', 'time_max', 'attr', 'selection_fields', 'scope'],
  additionalProperties: false,
  properties: {
    layer_type: { enum: [...LAYER_TYPES] },
    time_min: TIME_OR_NULL,
    time_max: TIME_OR_NULL,
    attr: { type: 'object', properties: Object.fromEntries(ZOOM_KEYS.map((k) => [k, ZOOM])) },
    selection_fields: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'displayName', 'type'],
        additionalProperties: false,
        properties: {
          key: { type: 'string' },
          displayName: { type: 'string' },
          type: { enum: [...SELECTION_FIELD_TYPES] },
          visible: { type: 'boolean' },
          unit: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
      },
    },
    scope: {
      type: 'object',
      required: ['selection_fields'],
      additionalProperties: false,
      properties: { selection_fields: { enum: [...SELECTION_SCOPES] } },
    },
  },
};

/** A new layer template: a feature layer, no time range, no zoom limits, no selection fields. */
export function newLayerTemplateFields(): LayerTemplate {
  return {
    layer_type: 'feature',
    time_min: null,
    time_max: null,
    attr: {},
    selection_fields: [],
    scope: { selection_fields: 'template' },
  };
}

/** The datum type, contributed on both sides by the layers plugin. */
export const layerTemplateType = (): DatumTypeDescriptor => ({
  id: 'layers.layertemplate',
  name: LAYER_TEMPLATE_TYPE,
  schema: LAYER_TEMPLATE_SCHEMA,
  template: newLayerTemplateFields() as unknown as Record<string, unknown>,
  repr: (f) => {
    const fields = Array.isArray(f.selection_fields) ? f.selection_fields.length : 0;
    return `${String(f.layer_type)} (${fields})`;
  },
});

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks a template's fields beyond their shape (the layer rules: zoom keys only for types with
 * zoom settings, minimum not above maximum, time_min not after time_max) and returns it cleaned
 * (nulls removed from attr); a problem names the template field.
 */
export function readLayerTemplate(fields: unknown): { template?: LayerTemplate; problem?: LayerProblem } {
  if (!isObject(fields)) return { problem: { key: 'layers:templates.errors.shape', field: 'template' } };
  const type = fields.layer_type;
  if (!(LAYER_TYPES as readonly unknown[]).includes(type))
    return { problem: { key: 'layers:errors.type', field: 'layer_type', params: { type: String(type) } } };
  const { attr, problem } = checkAttr(fields.attr ?? {}, type as string);
  if (problem) return { problem };
  const selection = fields.selection_fields ?? [];
  const bad = checkSelectionFields(selection);
  if (bad) return { problem: bad };
  const time_min = (fields.time_min as string | null | undefined) ?? null;
  const time_max = (fields.time_max as string | null | undefined) ?? null;
  const order = checkTimeRange(time_min, time_max);
  if (order) return { problem: order };
  const scope = isObject(fields.scope) ? fields.scope.selection_fields : undefined;
  return {
    template: {
      layer_type: type as LayerType,
      time_min,
      time_max,
      attr: attr ?? {},
      selection_fields: (selection as SelectionField[]).map((f) => ({ ...f })),
      scope: { selection_fields: scope === 'all_attributes' ? 'all_attributes' : 'template' },
    },
  };
}

/** A layer's settings as a layer template (`template_layer`): its type, time range, zoom settings and selection fields. */
export function templateOfLayer(layer: {
  type: unknown;
  time_min?: unknown;
  time_max?: unknown;
  attr?: unknown;
  selection_fields?: unknown;
}): LayerTemplate {
  const time = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === 'string' && v ? v : null);
  const attr = isObject(layer.attr) ? layer.attr : {};
  return {
    layer_type: layer.type as LayerType,
    time_min: time(layer.time_min),
    time_max: time(layer.time_max),
    attr: Object.fromEntries(Object.entries(attr).filter(([, v]) => v !== null)),
    selection_fields: Array.isArray(layer.selection_fields) ? (layer.selection_fields as SelectionField[]) : [],
    scope: { selection_fields: 'template' },
  };
}

/**
 * The layer fields a template gives (spec 001 §3.1): type, time range, attr and selection fields;
 * with scope `all_attributes` the piles' other attributes are appended (`attributes`).
 */
export function layerFieldsOf(template: LayerTemplate, attributes: readonly LayerAttribute[] = []): Record<string, unknown> {
  return {
    type: template.layer_type,
    time_min: template.time_min,
    time_max: template.time_max,
    attr: { ...template.attr },
    selection_fields:
      template.scope.selection_fields === 'all_attributes'
        ? addAllAttributes(template.selection_fields, attributes)
        : template.selection_fields.map((f) => ({ ...f })),
  };
}
