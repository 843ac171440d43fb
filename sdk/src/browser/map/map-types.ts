import type { Bbox, MapFeature } from '../../common/map-geometry';

/** How a map draws features: CSS colours (any the browser accepts) and a stroke width in px. */
export interface MapFeatureStyle {
  fill?: string;
  stroke?: string;
  strokeWidth?: number;
}

/** The props of the SDK's one map building block (`MapView`). */
export interface MapViewProps {
  /** GeoJSON features; those failing spec 001 §5.2 are left out. */
  features?: readonly MapFeature[];
  featureStyle?: MapFeatureStyle;
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
