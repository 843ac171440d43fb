import type { Bbox, MapFeature } from '../../common/map-geometry';

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
 * draws the feature once, in order; an empty list hides it. Called again when the scale changes.
 */
export type MapFeatureStyler = (feature: MapFeature, scaleDenominator: number) => readonly MapFeatureStyle[];

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
  /** Scene mode: a flat 2D map (the default) or the 3D globe. */
  mode?: '2d' | '3d';
  /** CSS height of the map (default 400px). */
  height?: number | string;
  /** Accessible name of the map region. */
  label?: string;
  className?: string;
}
