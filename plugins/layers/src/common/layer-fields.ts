import { defineFields } from '@werkbank/sdk';
import { LAYER_TYPES } from './layer-types';
import { isValidSlug, SLUG_MAX } from './layer-slug';

/** The fields of `/api/v1/layer/` (spec 001 §3.1), declared once for both sides (decision 0024). */
export const LAYER_FIELDS = defineFields({
  revision: { type: 'int', readOnly: true, order: true },
  name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
  slug: {
    type: 'string',
    default: '',
    maxLength: SLUG_MAX,
    search: true,
    order: true,
    filter: true,
    validate: (v) => (v === '' || isValidSlug(v) ? undefined : 'layers:errors.slug'),
  },
  type: { type: 'string', default: 'feature', enum: LAYER_TYPES, order: true, filter: true },
  attr: { type: 'json', default: {} },
  layerpiles: { type: 'json', virtual: true },
  /** '' or the layer's own legend address once a PNG was uploaded (decision 0063); see layer-resource.ts for writes. */
  legend: { type: 'string', default: '', maxLength: 2000 },
  /** The uploaded legend's blob (sha256) and size; not in replies. */
  legend_blob: { type: 'string', hidden: true, readOnly: true, nullable: true },
  legend_size: { type: 'int', hidden: true, readOnly: true },
  description_title: { type: 'text', default: '', search: true },
  description: { type: 'text', default: '', search: true },
  public: { type: 'bool', default: false, filter: true },
  selection_title: { type: 'text', default: '' },
  selection_contact: { type: 'text', default: '' },
  selection_image: { type: 'string', default: '', maxLength: 2000 },
  selection_fields: { type: 'json', default: [] },
  attribute_filters: { type: 'json', default: [] },
  time_min: { type: 'datetime', nullable: true },
  time_max: { type: 'datetime', nullable: true },
  metadata: { type: 'json', nullable: true },
  bbox: { type: 'json', nullable: true },
  /** The map style (decision 0061, style-model.ts); null: the default style. */
  style: { type: 'json', nullable: true },
  /** pmtiles layers: tile generation settings (spec 001 §3.3, decision 0062); checked in the resource's hooks. */
  tile_settings: { type: 'json', nullable: true },
  /** pmtiles layers: what the last build wrote (TileArchive), set only by the build. */
  tile_archive: { type: 'json', readOnly: true, nullable: true },
  /** A style datum of a style depot drawn instead of `style` (decision 0068); null: the layer's own style. */
  style_datum: { type: 'ref', column: 'style_datum_id', refKind: 'datum', refPath: '/api/v1/datum/', nullable: true },
  persistent_size: { type: 'int', readOnly: true, order: true },
  persistent_size_modified: { type: 'datetime', readOnly: true, nullable: true },
  user: { type: 'ref', column: 'owner_id', refKind: 'user', readOnly: true, nullable: true },
  created: { type: 'datetime', readOnly: true, order: true },
  modified: { type: 'datetime', readOnly: true, order: true },
});
