import type { Bbox, MapFeature } from '../../common/map-geometry';
import type { MapImagery } from '../../common/map-imagery';

/** How a map draws features: CSS colours (any the browser accepts) and a stroke width in px. */
export interface MapFeatureStyle {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
  /** Opacities 0–1 of fill and stroke (default 0.4 and 1). */
  fillOpacity?: number;
  strokeOpacity?: number;
  /** Dash pattern of lines and outlines in px (dash, gap, ...); none: solid. */
  dash?: readonly number[] | null;
  /** Points: an image (a canvas or an address) of `size` px, or else a dot of `size` px in `fill`. */
  point?: { image?: HTMLCanvasElement | string; size: number; opacity?: number };
  /** A label at the feature (for lines and areas at their centre). */
  label?: { text: string; size: number; fill: string; haloFill?: string; haloWidth?: number; dx?: number; dy?: number };
}

/**
 * Styles each feature at the map's current scale (1:`scaleDenominator`): every style of the list
 * draws the feature once, in order; an empty list hides it. Called again when the scale changes,
 * and for the feature under the pointer with `{hover: true}` when it comes and goes (a map style's
 * hover symbols; a styler that ignores the flag draws hovered features as the others).
 */
export type MapFeatureStyler = (
  feature: MapFeature,
  scaleDenominator: number,
  state?: { hover: boolean },
) => readonly MapFeatureStyle[];

/** The scene modes of the map: a flat map, the globe, and Columbus view (2.5D). */
export type MapMode = '2d' | '3d' | 'columbus';

/** The props of the SDK's one map building block (`MapView`). */
export interface MapViewProps {
  /** GeoJSON features; those failing spec 001 §5.2 are left out. */
  features?: readonly MapFeature[];
  featureStyle?: MapFeatureStyle;
  /** Per-feature styles (a map style's rules); takes the place of `featureStyle`. */
  styleFeature?: MapFeatureStyler;
  /** Told the map's scale denominator when the view settles. */
  onScaleChange?: (scaleDenominator: number) => void;
  /** A bbox to show as an outline (and to fit to). */
  bbox?: Bbox | null;
  /** Called with the drawn or edited bbox; when given, the map offers to draw one. */
  onBboxChange?: (bbox: Bbox) => void;
  /** WMS and WMTS imagery over the base map, the last on top (decision 0067). */
  imagery?: readonly MapImagery[];
  /** Told the feature under the pointer (undefined when the pointer leaves it). */
  onFeatureHover?: (feature: MapFeature | undefined) => void;
  /**
   * Scene mode. Given: the map shows it and offers no switch. Otherwise the map offers a 2D / 3D /
   * Columbus switch and keeps the choice per screen under `modeKey` (default 2D).
   */
  mode?: MapMode;
  /** The screen's name for keeping the chosen mode (e.g. `depot`, `layer_preview`); default `map`. */
  modeKey?: string;
  /** CSS height of the map (default 400px). */
  height?: number | string;
  /** Accessible name of the map region. */
  label?: string;
  className?: string;
}
