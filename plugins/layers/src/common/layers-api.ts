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
import type { TileSettings } from './tile-settings';

export { LAYER_TYPES, PILE_TYPES, ZOOM_KEYS, hasZoomSettings, isLayerType, type LayerType } from './layer-types';
export { isValidSlug, layerServiceName } from './layer-slug';
export {
  acceptsFeature,
  attributeFilterParam,
  parseAttributeFilterParam,
  ATTRIBUTE_FILTER_PARAM,
} from './attribute-filter-match';
export {
  evaluateStyle,
  matchesFilter,
  inScale,
  symbolizersOf,
  scaleToZoom,
  geometryKind,
  UnknownSymbolTypeError,
  type GeometryKind,
  type LayerStyle,
  type StyleRule,
  type StyleSymbol,
  type StyleFilter,
  type Symbolizer,
} from './style-model';
export { checkStyle } from './style-validation';
export { SHAPE_PATHS } from './style-shapes';
export { TILE_SETTING_DEFAULTS, checkTileSettings, resolveTileSettings, type TileSettings } from './tile-settings';

export const LAYER_PATH = '/api/v1/layer/';
/** `POST {layer}save_style/`: writes a style into a style depot (decision 0068). */
export const SAVE_STYLE_ACTION = 'save_style/';
/** `GET {layer}effective_style/`: the EffectiveLayerStyle. */
export const EFFECTIVE_STYLE_ACTION = 'effective_style/';
export const PILE_PATH = '/api/v1/pile/';
export const LAYER_ATTRIBUTES_PATH = '/api/v2/backend/layer-attributes';
export const LAYER_ATTRIBUTE_VALUES_PATH = '/api/v2/backend/layer-attribute-values';
/** A pmtiles layer's archive: `{LAYER_PATH}{id}/tiles.pmtiles` (GET, HEAD, byte ranges) and its build (POST). */
export const tileArchivePath = (id: number) => `${LAYER_PATH}${id}/tiles.pmtiles`;
export const tileBuildPath = (id: number) => `${LAYER_PATH}${id}/build_tiles/`;

/** What the last build of a pmtiles layer wrote (decision 0062); `tile_archive` of the layer, null before. */
export interface TileArchive {
  /** Where readers fetch it (byte ranges). */
  url: string;
  /** Bytes of the archive (also the layer's persistent_size). */
  size: number;
  /** When it was built (also persistent_size_modified). */
  built: string;
  min_zoom: number;
  max_zoom: number;
  /** Whether max_zoom was guessed from the features' spacing. */
  guessed_max_zoom: boolean;
  /** Tiles with content, and distinct tile contents stored. */
  tiles: number;
  features: number;
  /** Feature copies left out (drop strategies) or merged into a neighbour (coalesce strategies), over all tiles. */
  dropped: number;
  coalesced: number;
  /** [west, south, east, north] of the features. */
  bounds: [number, number, number, number];
  /** The moment of each pile's depot that was read. */
  moments: Array<{ depot: number; moment: number }>;
}

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
  /** The layer's own map style (spec 001 §3.7); null: the default style. */
  style: LayerStyle | null;
  /** pmtiles layers: the tile generation settings that differ from the defaults (spec 001 §3.3). */
  tile_settings: Partial<TileSettings> | null;
  /** pmtiles layers: the last built archive, or null. */
  tile_archive: TileArchive | null;
  /**
   * The linked style datum of a style depot (`/api/v1/datum/{id}/`), drawn instead of `style`
   * (decision 0068); null: the layer's own style.
   */
  style_datum: string | null;
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
 * The style a layer is drawn with (decision 0068): `source` says where it comes from — the linked
 * style datum (`datum`), the layer's own style (`layer`) or the default style (`default`).
 */
export interface EffectiveLayerStyle {
  style: LayerStyle;
  source: 'datum' | 'layer' | 'default';
  /** The linked style datum's address (also when it could not be used), else null. */
  datum: string | null;
  /** The style depot's address, when the datum was read. */
  depot: string | null;
  /** The style depot's moment whose version was read. */
  moment_id: number | null;
  /** True when that moment is the depot's latest approved one; false: its head. */
  approved: boolean;
  /** The style datum's name (`value.name`). */
  name?: string;
  /** Why a linked datum was not used: the caller may not read it (or it is gone), or it holds no valid style. */
  fallback?: 'unreadable' | 'invalid';
}

/** A layer as its services publish it (`LayerReader.published`). */
export interface PublishedLayer {
  layer: Layer;
  /** True when the caller may change the layer: only such callers may preview a draft moment. */
  writable: boolean;
  style: EffectiveLayerStyle;
  /**
   * Asked for with `{ extent: true }`: where the layer has data, [west, south, east, north] in
   * degrees — its bbox when set, else the union of its piles' published moments' extents; null
   * when unknown.
   */
  extent?: [number, number, number, number] | null;
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
  /**
   * The style to draw the layer with (decision 0068), for the WMS renderer and every other reader:
   * the linked style datum at its depot's latest approved moment (the head's version when there is
   * none or the datum is younger), read with the user's permissions; else the layer's own style;
   * else the default style. Feed `style` to `evaluateStyle`.
   */
  effectiveStyle(user: AuthUser, idOrSlug: number | string): Promise<EffectiveLayerStyle>;
  /**
   * The layer as its services publish it (decision 0083): for `caller` undefined (anonymous) only a
   * public layer, otherwise one the caller may read; the resource layer's 404 in every other case, so
   * a layer the caller may not read looks like one that does not exist. The style is the one the
   * layer is drawn with for everyone (read as the layer's publisher, not the caller).
   */
  published(caller: AuthUser | undefined, idOrSlug: number | string, options?: { extent?: boolean }): Promise<PublishedLayer>;
  /**
   * Every layer `published` gives the caller, by id: the public ones for an anonymous caller, else
   * those the caller may read (for landing pages that list a server's layers, decision 0083).
   */
  publishedLayers(caller: AuthUser | undefined): Promise<Layer[]>;
}
export const LayerReader = token<LayerReader>('layers.LayerReader');
