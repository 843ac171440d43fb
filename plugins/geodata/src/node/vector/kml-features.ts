import type { Geometry, GeometryCollection } from 'geojson';
import type { Document } from '@xmldom/xmldom';

/** KML elements that describe how placemarks look, not what they are. */
const STYLE_ELEMENTS = ['Style', 'StyleMap', 'styleUrl'];

/**
 * Removes the style elements (Style, StyleMap, styleUrl) from a KML document before it is
 * converted, so colours, widths and icons of the display do not become attributes of the features.
 */
export function dropStyles(doc: Document): void {
  for (const tag of STYLE_ELEMENTS)
    for (const element of Array.from(doc.getElementsByTagName(tag))) element.parentNode?.removeChild(element);
}

const MULTI: Record<string, 'MultiPoint' | 'MultiLineString' | 'MultiPolygon'> = {
  Point: 'MultiPoint',
  LineString: 'MultiLineString',
  Polygon: 'MultiPolygon',
};

/**
 * The geometry of a KML MultiGeometry as the matching GeoJSON multi-geometry: the collection
 * togeojson makes of polygons only becomes a MultiPolygon, of lines a MultiLineString, of points a
 * MultiPoint; a mixed collection and every other geometry stay as they are.
 */
export function asMulti(geometry: Geometry | null): Geometry | null {
  if (geometry?.type !== 'GeometryCollection') return geometry;
  const { geometries } = geometry as GeometryCollection;
  const type = geometries[0] && MULTI[geometries[0].type];
  if (!type || !geometries.every((g) => g.type === geometries[0].type)) return geometry;
  return { type, coordinates: geometries.map((g) => (g as { coordinates: unknown }).coordinates) } as Geometry;
}
