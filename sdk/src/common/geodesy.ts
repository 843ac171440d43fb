/**
 * Geodesic measures on WGS 84 (GeographicLib, Karney 2013) and the coordinates of the German UTM
 * zone 32 (EPSG:25832): one rule for the geometry functions on the server and the viewer's measure
 * tool and coordinates readout.
 */
import type { Geometry, Position } from 'geojson';
import geodesic from 'geographiclib-geodesic';
import proj4 from 'proj4';

/** The WGS 84 ellipsoid of GeographicLib (a = 6378137 m, f = 1/298.257223563). */
const WGS84 = geodesic.Geodesic.WGS84;

/** A ring or line without the closing position that repeats the first. */
function open(ring: Position[]): Position[] {
  const [first, last] = [ring[0], ring[ring.length - 1]];
  return ring.length > 1 && first[0] === last[0] && first[1] === last[1] ? ring.slice(0, -1) : ring;
}

/**
 * The area in m² enclosed by a ring of lon/lat positions on WGS 84, its edges geodesics
 * (GeographicLib's PolygonArea, Karney 2013). Orientation does not matter: the smaller of the
 * two areas the ring divides the ellipsoid into.
 */
export function ringArea(ring: Position[]): number {
  const positions = open(ring);
  if (positions.length < 3) return 0;
  const polygon = WGS84.Polygon(false);
  for (const [lon, lat] of positions) polygon.AddPoint(lat, lon);
  return Math.abs(polygon.Compute(false, true).area ?? 0);
}

/** The length in m of a path through lon/lat positions along geodesics on WGS 84; `closed` adds the edge back to the start. */
export function pathLength(positions: Position[], closed = false): number {
  const points = closed ? open(positions) : positions;
  if (points.length < 2) return 0;
  const line = WGS84.Polygon(true);
  for (const [lon, lat] of points) line.AddPoint(lat, lon);
  if (closed) line.AddPoint(points[0][1], points[0][0]);
  return line.Compute(false, true).perimeter;
}

/** A polygon's area: its exterior ring's less its holes'. */
const polygonArea = (rings: Position[][]) =>
  rings.reduce((sum, ring, i) => sum + (i === 0 ? ringArea(ring) : -ringArea(ring)), 0);

/**
 * The geodesic area in m² of a GeoJSON geometry in lon/lat degrees (WGS 84): polygons with holes
 * subtracted, the parts of multi-geometries and collections summed; points and lines have none.
 */
export function geodesicArea(geometry: Geometry): number {
  switch (geometry.type) {
    case 'Polygon':
      return polygonArea(geometry.coordinates);
    case 'MultiPolygon':
      return geometry.coordinates.reduce((sum, polygon) => sum + polygonArea(polygon), 0);
    case 'GeometryCollection':
      return geometry.geometries.reduce((sum, g) => sum + geodesicArea(g), 0);
    default:
      return 0;
  }
}

/**
 * The geodesic length in m of a GeoJSON geometry in lon/lat degrees (WGS 84): lines along their
 * vertices, areas as the perimeter of all their rings (holes included), parts summed; points 0.
 */
export function geodesicLength(geometry: Geometry): number {
  const rings = (polygon: Position[][]) => polygon.reduce((sum, ring) => sum + pathLength(ring, true), 0);
  switch (geometry.type) {
    case 'LineString':
      return pathLength(geometry.coordinates);
    case 'MultiLineString':
      return geometry.coordinates.reduce((sum, line) => sum + pathLength(line), 0);
    case 'Polygon':
      return rings(geometry.coordinates);
    case 'MultiPolygon':
      return geometry.coordinates.reduce((sum, polygon) => sum + rings(polygon), 0);
    case 'GeometryCollection':
      return geometry.geometries.reduce((sum, g) => sum + geodesicLength(g), 0);
    default:
      return 0;
  }
}

/** EPSG:25832 (ETRS89 / UTM zone 32N), as proj4 defines it. */
export const EPSG_25832 = '+proj=utm +zone=32 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

const toUtm32 = proj4('EPSG:4326', EPSG_25832);

/** A lon/lat position in EPSG:25832 metres (easting, northing). */
export function utm32Of(lon: number, lat: number): [number, number] {
  const [e, n] = toUtm32.forward([lon, lat]);
  return [e, n];
}
