import { bbox } from '@turf/bbox';
import { featureCollection, type Units } from '@turf/helpers';
import type { FunctionDescriptor } from '@werkbank/sdk/node';
import { eachChunked, failure, featureOf, guarded, itemsOf, numberParam, paramOf, withGeometry } from './geometry-items';
import { featuresPort, param } from './ports';
import type { GeometryCompute } from './geometry-compute';
import { backFromWgs84, inWgs84 } from './wgs84-items';
import { geodesicArea, geodesicLength } from './geodesic-measure';
import { planarCentroid } from './planar-centroid';
import { pointOnSurface } from './point-on-surface';

const UNITS: Units[] = ['meters', 'kilometers', 'miles', 'nauticalmiles', 'feet', 'yards', 'degrees'];

/**
 * Buffer, centroid, simplify, bbox, area and length over frames of features; buffer and simplify
 * compute through `compute` (the WorkerPool). Area, length and buffer work on WGS 84 and take
 * features in another CRS there (buffer's result goes back to it); the others keep the CRS.
 */
export const measureFunctions = (compute: GeometryCompute): FunctionDescriptor[] => [
  {
    id: 'geometry.buffer',
    version: '1',
    verbose_name: { de: 'Puffer', en: 'Buffer' },
    doc: {
      de: 'Legt um jedes Feature einen Puffer im Abstand distance (geodätisch, WGS 84). unit: meters (Standard), kilometers, miles, nauticalmiles, feet, yards oder degrees. Ein negativer Abstand verkleinert Flächen; was dabei verschwindet, fällt weg. Die Eigenschaften bleiben erhalten.',
      en: 'Draws a buffer at distance around every feature (geodesic, WGS 84). unit: meters (default), kilometers, miles, nauticalmiles, feet, yards or degrees. A negative distance shrinks areas; features that vanish are left out. Properties are kept.',
    },
    inputs: [featuresPort(), param('distance', 'float'), param('unit', 'string', 'meters')],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const items = itemsOf(inputs, 'features');
      const distance = numberParam(inputs, 'distance');
      const unit = paramOf(inputs, 'unit', 'meters') as Units;
      if (!UNITS.includes(unit)) throw failure('invalid_unit', { unit: String(unit), units: UNITS.join(', ') });
      const wgs84 = await inWgs84(items, 'features', ctx);
      ctx.progress(0.1);
      const features = await compute('bufferItems', { items: wgs84.items, distance, unit }, ctx);
      ctx.progress(0.9);
      return { features: await backFromWgs84(features, wgs84.crs, ctx) };
    },
  },
  {
    id: 'geometry.centroid',
    version: '1',
    verbose_name: { de: 'Schwerpunkt', en: 'Centroid' },
    doc: {
      de: 'Ersetzt die Geometrie jedes Features durch ihren Schwerpunkt: bei Flächen den Flächenschwerpunkt (Löcher abgezogen, die Teile einer Mehrfachfläche nach ihrer Fläche gewichtet), bei Linien den Schwerpunkt nach Länge, bei Punkten ihren Mittelpunkt. Gerechnet wird eben in den Koordinaten der Daten, wie GIS-Programme es tun (ST_Centroid). Bei gekrümmten Flächen kann der Schwerpunkt außerhalb liegen; on_surface: stattdessen einen Punkt, der sicher auf der Geometrie liegt (in der Fläche, auf der Linie; ST_PointOnSurface). Die Eigenschaften bleiben erhalten.',
      en: "Replaces the geometry of every feature with its centroid: for areas the centre of their area (holes subtracted, the parts of a multi-polygon weighted by their area), for lines the centre by length, for points their mean. It is computed in the plane of the data's coordinates, as GIS software does (ST_Centroid). For concave areas the centroid may lie outside; on_surface: a point that is sure to lie on the geometry instead (inside the area, on the line; ST_PointOnSurface). Properties are kept.",
    },
    inputs: [featuresPort(), param('on_surface', 'bool', false)],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const items = itemsOf(inputs, 'features');
      const locate = paramOf(inputs, 'on_surface', false) === true ? pointOnSurface : planarCentroid;
      const features = await eachChunked(items.length, ctx, (i) => {
        const f = featureOf(items, 'features', i);
        const point = guarded('features', i, () => locate(f.geometry));
        if (!point) throw failure('no_geometry', { item: `features[${i}]` });
        return withGeometry(f, { type: 'Point', coordinates: point });
      });
      return { features };
    },
  },
  {
    id: 'geometry.simplify',
    version: '1',
    verbose_name: { de: 'Vereinfachen', en: 'Simplify' },
    doc: {
      de: 'Vereinfacht Linien und Flächen (Douglas-Peucker) mit der Toleranz tolerance in Koordinateneinheiten (bei WGS 84 Grad, z. B. 0.0001 ≈ 11 m). high_quality: langsamer, aber genauer (ohne radiale Vorauswahl). Punkte bleiben unverändert.',
      en: 'Simplifies lines and areas (Douglas-Peucker) with tolerance in coordinate units (degrees for WGS 84, e.g. 0.0001 ≈ 11 m). high_quality: slower but more exact (no radial pre-pass). Points are unchanged.',
    },
    inputs: [featuresPort(), param('tolerance', 'float', 0.0001), param('high_quality', 'bool', false)],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const items = itemsOf(inputs, 'features');
      const tolerance = numberParam(inputs, 'tolerance', 0.0001);
      if (tolerance < 0) throw failure('negative_tolerance', { tolerance });
      const highQuality = paramOf(inputs, 'high_quality', false) === true;
      return { features: await compute('simplifyItems', { items, tolerance, highQuality }, ctx) };
    },
  },
  {
    id: 'geometry.bbox',
    version: '1',
    verbose_name: { de: 'Umgebendes Rechteck', en: 'Bounding box' },
    doc: {
      de: 'Das umgebende Rechteck aller Features zusammen als ein bbox [West, Süd, Ost, Nord]. Ohne Features ist die Ausgabe leer.',
      en: 'The bounding box of all features together as one bbox [west, south, east, north]. Without features the output is empty.',
    },
    inputs: [featuresPort()],
    outputs: [{ name: 'bbox', content_type: 'bbox' }],
    run: async (inputs, ctx) => {
      const items = itemsOf(inputs, 'features');
      const features = await eachChunked(items.length, ctx, (i) => featureOf(items, 'features', i));
      if (!features.length) return { bbox: [] };
      const [w, s, e, n] = bbox(featureCollection(features));
      return { bbox: [{ value: [w, s, e, n] }] };
    },
  },
  {
    id: 'geometry.area',
    version: '1',
    verbose_name: { de: 'Fläche', en: 'Area' },
    doc: {
      de: 'Die Fläche jedes Features in m² auf dem Ellipsoid WGS 84, die Kanten als kürzeste Verbindungen auf dem Ellipsoid (geodätische Linien), als Zahlen in der Reihenfolge der Features. Löcher werden abgezogen, die Teile von Mehrfachgeometrien zusammengezählt; Punkte und Linien haben die Fläche 0. Die Koordinaten sind Länge und Breite in Grad.',
      en: 'The area of every feature in m² on the WGS 84 ellipsoid, its edges taken as the shortest paths on the ellipsoid (geodesics), as numbers in the order of the features. Holes are subtracted, the parts of multi-geometries added up; points and lines have area 0. Coordinates are longitude and latitude in degrees.',
    },
    inputs: [featuresPort()],
    outputs: [{ name: 'area', content_type: 'float' }],
    run: async (inputs, ctx) => {
      const { items } = await inWgs84(itemsOf(inputs, 'features'), 'features', ctx);
      const out = await eachChunked(items.length, ctx, (i) => {
        const f = featureOf(items, 'features', i);
        return { value: guarded('features', i, () => geodesicArea(f.geometry)) };
      });
      return { area: out };
    },
  },
  {
    id: 'geometry.length',
    version: '1',
    verbose_name: { de: 'Länge', en: 'Length' },
    doc: {
      de: 'Die Länge jedes Features in m auf dem Ellipsoid WGS 84, die Kanten als kürzeste Verbindungen auf dem Ellipsoid (geodätische Linien), als Zahlen in der Reihenfolge der Features; bei Flächen der Umfang aller Ränder (Löcher eingeschlossen), bei Mehrfachgeometrien die Summe, bei Punkten 0. Die Koordinaten sind Länge und Breite in Grad.',
      en: 'The length of every feature in m on the WGS 84 ellipsoid, its edges taken as the shortest paths on the ellipsoid (geodesics), as numbers in the order of the features; for areas the perimeter of all their rings (holes included), the sum for multi-geometries, 0 for points. Coordinates are longitude and latitude in degrees.',
    },
    inputs: [featuresPort()],
    outputs: [{ name: 'length', content_type: 'float' }],
    run: async (inputs, ctx) => {
      const { items } = await inWgs84(itemsOf(inputs, 'features'), 'features', ctx);
      const out = await eachChunked(items.length, ctx, (i) => {
        const f = featureOf(items, 'features', i);
        return { value: guarded('features', i, () => geodesicLength(f.geometry)) };
      });
      return { length: out };
    },
  },
];
