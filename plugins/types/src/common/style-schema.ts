import type { JsonSchema } from '@werkbank/sdk';
import { BOOLEAN, numbers, STRING, valueFields } from './schema-parts';

/** A number that may also be left empty (null), spec 001 §5.3 "empty gives none". */
const OPTIONAL_NUMBER: JsonSchema = { type: ['number', 'null'] };
const OPTIONAL_INTEGER: JsonSchema = { type: ['integer', 'null'] };
const SCALE: JsonSchema = { type: ['integer', 'null'], minimum: 0 };

/**
 * A symbol of spec 001 §3.7. Known fields are checked; others are allowed (renderers may add
 * their own). `contour_type` is meant for hover symbols only, but is not refused elsewhere.
 */
const SYMBOL: JsonSchema = {
  type: 'object',
  properties: {
    symbol_type: { enum: ['style', 'graphic', 'billboard'] },
    fill: STRING,
    fill_opacity: OPTIONAL_NUMBER,
    fill_pattern: STRING,
    stroke: STRING,
    stroke_opacity: OPTIONAL_NUMBER,
    stroke_width: OPTIONAL_NUMBER,
    stroke_dasharray: { type: ['string', 'array', 'null'], items: { type: 'number' } },
    circle_radius: OPTIONAL_NUMBER,
    contour_type: { enum: ['feature', 'circle', 'bbox'] },
    graphic: STRING,
    graphic_anchor: numbers(2),
    graphic_offset: numbers(2),
    graphic_opacity: OPTIONAL_NUMBER,
    graphic_scale: OPTIONAL_NUMBER,
    graphic_url: STRING,
    billboard: BOOLEAN,
    text_label: STRING,
    text_dx: OPTIONAL_NUMBER,
    text_dy: OPTIONAL_NUMBER,
    text_size: OPTIONAL_INTEGER,
    text_fill: STRING,
    text_halo_fill: STRING,
    text_halo_radius: OPTIONAL_INTEGER,
  },
};

/** A rule of spec 001 §3.7: a symbol, an optional hover symbol, a filter and a scale range. */
const RULE: JsonSchema = {
  type: 'object',
  required: ['symbol'],
  properties: {
    symbol: SYMBOL,
    hover_symbol: { ...SYMBOL, type: ['object', 'null'] },
    hover_enabled: BOOLEAN,
    filter: {},
    max_scale_denominator: SCALE,
    min_scale_denominator: SCALE,
  },
};

/**
 * style: `{value: {name?, rules: [rule, ...]}}` — the layers plugin's style model (decision 0061);
 * `name` names the style in pickers (decision 0068).
 */
export const STYLE_SCHEMA: JsonSchema = valueFields({
  type: 'object',
  required: ['rules'],
  properties: { name: STRING, rules: { type: 'array', items: RULE } },
});
