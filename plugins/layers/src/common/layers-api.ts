/**
 * The layers plugin's API for other plugins (package export `@werkbank/plugin-layers/api`): the
 * wire shapes of layers, layerpiles and layer attributes, their addresses, and `LayerReader`, the
 * node-side service the services and views plugins read layers through (with the caller's
 * permissions). Import it only from a plugin that lists 'layers' in `requires` or `optional`.
 */
import { token } from '@werkbank/sdk';
import type { AuthUser } from '@werkbank/sdk/node';
import type { LayerType } from './layer-types';
import type { LayerStyle } from './style-model';

export { LAYER_TYPES, PILE_TYPES, ZOOM_KEYS, hasZoomSettings, isLayerType, type LayerType } from './layer-types';
export { isValidSlug, layerServiceName } from './layer-slug';
export {
  evaluateStyle,
  matchesFilter,
  inScale,
  symbolizersOf,
  scaleToZoom,
  type LayerStyle,
  type StyleRule,
  type StyleSymbol,
  type StyleFilter,
  type Symbolizer,
} from './style-model';
export { checkStyle } from './style-validation';
export { SHAPE_PATHS } from './style-shapes';

export const LAYER_PATH = '/api/v1/layer/';
export const PILE_PATH = '/api/v1/pile/';
export const LAYER_ATTRIBUTES_PATH = '/api/v2/backend/layer-attributes';
export const LAYER_ATTRIBUTE_VALUES_PATH = '/api/v2/backend/layer-attribute-values';

/** spec 001 §3.1 Layerpile: one depot stacked in a layer, in the layer's order. */
export interface LayerPile {
  id: number;
  resource_uri: string;
  layer: string;
  /** The depot's address. */
  depot: string;
  depot_id: number;
  /** Read-only (spec 001 §2.2): the depot has an approved moment the services can publish. */
  active: boolean;
  name: string;
  /** The depot's type address (`/api/v1/type/{name}/`). */
  content_type: string;
  /** Datums in the depot's current moment. */
  size: number;
  /**
   * The switchboard that fills the depot (its run wrote the depot's newest moment a run wrote), when
   * one did and the caller may read it (decision 0064); with its name.
   */
  switchboard: string | null;
  switchboard_name: string | null;
  position: number;
}

/** spec 001 §3.1 Selection field. */
export interface SelectionField {
  key: string;
  displayName: string;
  type: string;
  visible?: boolean;
  unit?: string | null;
}

/** spec 001 §3.1 Attribute filter. */
export interface AttributeFilter {
  attribute_key: string;
  display_name?: string;
  visible?: boolean;
  filter: { filter_type: 'allowed-values' | 'min-max-value' | 'temporal-bounds'; filter_arguments: Record<string, unknown> };
}

/** A permission entry (spec 001 §3.1): a user or a group, never both. */
export interface LayerGrant {
  user?: string;
  group?: string;
  perms: Array<'read' | 'write'>;
}

/** spec 001 §3.1 Layer, as `/api/v1/layer/{id}/` replies. */
export interface Layer {
  id: number;
  resource_uri: string;
  revision: number;
  name: string;
  slug: string;
  type: LayerType;
  tags?: Array<{ id: number; name: string; color?: string; icon?: string; resource_uri: string }>;
  attr: Record<string, unknown>;
  layerpiles: LayerPile[];
  permissions: LayerGrant[];
  legend: string;
  description_title: string;
  description: string;
  public: boolean;
  selection_title: string;
  selection_contact: string;
  selection_image: string;
  selection_fields: SelectionField[];
  attribute_filters: AttributeFilter[];
  time_min: string | null;
  time_max: string | null;
  metadata: unknown;
  bbox: [number, number, number, number] | null;
  /** The map style (spec 001 §3.7); null: the default style. */
  style: LayerStyle | null;
  persistent_size: number;
  persistent_size_modified: string | null;
  /** The owner's address. */
  user: string | null;
  owner: string | null;
  favored?: boolean;
  access?: string[];
  created: string;
  modified: string;
}

/** One attribute of a layer: the union of its piles' feature properties (spec 001 §7 layer attributes). */
export interface LayerAttribute {
  name: string;
  /** JSON type of its values: string, number, integer, boolean, object, array; `mixed` when the piles disagree. */
  type: string;
}

/**
 * Reading layers on the server with a user's permissions, for plugins that publish or combine
 * layers. Throws the resource layer's 404 when the user may not read the layer.
 */
export interface LayerReader {
  /** A layer by id or short name, with its piles. */
  layer(user: AuthUser, idOrSlug: number | string): Promise<Layer>;
  /** The union of its piles' feature properties with their types. */
  attributes(user: AuthUser, layerId: number): Promise<LayerAttribute[]>;
}
export const LayerReader = token<LayerReader>('layers.LayerReader');
