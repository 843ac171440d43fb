import type { MultiPolygon, Point, Polygon } from 'geojson';
import { bbox as bboxOf } from '@turf/bbox';
import { bboxClip } from '@turf/bbox-clip';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { FunctionDescriptor, FunctionInputs, FunctionOutputs, FunctionRunContext } from '@werkbank/sdk/node';
import {
  datum,
  eachChunked,
  failure,
  featureOf,
  guarded,
  itemsOf,
  paramOf,
  polygonOf,
  withGeometry,
  type GeoFeature,
} from './geometry-items';
import { featuresPort, param } from './ports';
import type { GeometryCompute } from './geometry-compute';
import type { Area } from './geometry-tasks';
import { itemsCrs, labelled, portsCrs } from '../reproject/feature-crs';

/** The polygons of a port, checked item by item. */
const polygonsOf = (items: ReturnType<typeof itemsOf>, port: string, ctx: FunctionRunContext, span: [number, number]) =>
  eachChunked(items.length, ctx, (i) => polygonOf(items, port, i), span);

/**
 * Every area of port a overlaid with the areas of port b merged into one mask (both computed in
 * the WorkerPool): the part inside (intersection) or outside (difference) the mask, properties of
 * a kept. Without areas in b, a is kept unchanged or left out entirely (`withoutMask`). a and b
 * must be in one CRS; the result is in it too (decision 0035).
 */
async function overlayEach(
  compute: GeometryCompute,
  inputs: FunctionInputs,
  ctx: FunctionRunContext,
  withoutMask: 'keep' | 'drop',
  op: 'intersection' | 'difference',
): Promise<FunctionOutputs> {
  const a = itemsOf(inputs, 'a');
  const b = itemsOf(inputs, 'b');
  portsCrs([
    ['a', a],
    ['b', b],
  ]);
  const mask = await compute('mergeAreas', { items: b, port: 'b' }, ctx);
  ctx.progress(0.1);
  if (!mask && withoutMask === 'drop') return { features: [] };
  if (!mask) return { features: await eachChunked(a.length, ctx, (i) => datum(polygonOf(a, 'a', i)), [0.1, 1]) };
  const features = await compute('overlayItems', { a, mask, op }, ctx);
  ctx.progress(1);
  return { features };
}

/**
 * Intersection, difference, union, dissolve, spatial join and clip over frames of features; the
 * overlays compute through `compute` (the WorkerPool).
 */
export const overlayFunctions = (compute: GeometryCompute): FunctionDescriptor[] => [
  {
    id: 'geometry.intersection',
    version: '1',
    verbose_name: { de: 'Verschneiden', en: 'Intersection' },
    doc: {
      de: 'Für jede Fläche aus a der Teil, der in den Flächen aus b liegt (b zusammen als eine Fläche). Eigenschaften von a bleiben; Flächen ohne Überlappung fallen weg. a und b müssen Polygone oder Multipolygone sein.',
      en: 'For every area of a, the part that lies within the areas of b (b taken together as one area). Properties of a are kept; areas without overlap are left out. a and b must be polygons or multipolygons.',
    },
    inputs: [featuresPort('a'), featuresPort('b')],
    outputs: [featuresPort()],
    run: (inputs, ctx) => overlayEach(compute, inputs, ctx, 'drop', 'intersection'),
  },
  {
    id: 'geometry.difference',
    version: '1',
    verbose_name: { de: 'Differenz', en: 'Difference' },
    doc: {
      de: 'Für jede Fläche aus a der Teil, der in keiner Fläche aus b liegt. Eigenschaften von a bleiben; Flächen, die ganz verschwinden, fallen weg. Ohne b bleibt a unverändert.',
      en: 'For every area of a, the part that lies in no area of b. Properties of a are kept; areas that vanish entirely are left out. Without b, a is unchanged.',
    },
    inputs: [featuresPort('a'), { ...featuresPort('b'), is_optional: true }],
    outputs: [featuresPort()],
    run: (inputs, ctx) => overlayEach(compute, inputs, ctx, 'keep', 'difference'),
  },
  {
    id: 'geometry.union',
    version: '1',
    verbose_name: { de: 'Vereinigen', en: 'Union' },
    doc: {
      de: 'Vereinigt alle Flächen aus a und b (b ist optional) zu einem Feature ohne Eigenschaften. Ohne Flächen ist die Ausgabe leer.',
      en: 'Merges all areas of a and b (b is optional) into one feature without properties. Without areas the output is empty.',
    },
    inputs: [featuresPort('a'), { ...featuresPort('b'), is_optional: true }],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const a = itemsOf(inputs, 'a');
      const b = itemsOf(inputs, 'b');
      const crs = portsCrs([
        ['a', a],
        ['b', b],
      ]);
      await polygonsOf(b, 'b', ctx, [0, 0.1]);
      const all = await compute('mergeAreas', { items: [...a, ...b], port: 'a' }, ctx);
      ctx.progress(1);
      return { features: all ? [datum(labelled({ type: 'Feature', geometry: all.geometry, properties: {} }, crs))] : [] };
    },
  },
  {
    id: 'geometry.dissolve',
    version: '1',
    verbose_name: { de: 'Auflösen', en: 'Dissolve' },
    doc: {
      de: 'Vereinigt die Flächen mit gleichem Wert der Eigenschaft attribute zu je einem Feature, das nur diese Eigenschaft trägt (Reihenfolge: erstes Vorkommen). Ohne attribute wird alles zu einem Feature.',
      en: 'Merges the areas with the same value of the property attribute into one feature each, carrying only that property (order: first occurrence). Without attribute everything becomes one feature.',
    },
    inputs: [featuresPort(), param('attribute', 'string', '')],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const attribute = String(paramOf(inputs, 'attribute', ''));
      const items = itemsOf(inputs, 'features');
      const crs = itemsCrs(items, 'features');
      const areas = await polygonsOf(items, 'features', ctx, [0, 0.1]);
      const groups = new Map<string, { value: unknown; areas: Area[] }>();
      for (const f of areas) {
        const value = attribute ? (f.properties[attribute] ?? null) : null;
        const key = JSON.stringify(value);
        const group = groups.get(key) ?? { value, areas: [] };
        group.areas.push(f);
        groups.set(key, group);
      }
      const list = [...groups.values()];
      const all = await compute('mergeGroups', { groups: list.map((g) => g.areas), port: 'features' }, ctx);
      const features = [];
      for (const [i, group] of list.entries()) {
        const area = all[i];
        const properties = attribute ? { [attribute]: group.value } : {};
        if (area) features.push(datum(labelled({ type: 'Feature', geometry: area.geometry, properties }, crs)));
      }
      ctx.progress(1);
      return { features };
    },
  },
  {
    id: 'geometry.spatial_join',
    version: '1',
    verbose_name: { de: 'Räumliche Verknüpfung', en: 'Spatial join' },
    doc: {
      de: 'Kopiert auf jeden Punkt aus points die Eigenschaften der ersten Fläche aus polygons, in der er liegt (eigene Eigenschaften des Punkts gehen bei gleichem Namen vor). Punkte außerhalb aller Flächen bleiben unverändert, außer keep_unmatched ist falsch.',
      en: 'Copies onto every point of points the properties of the first area of polygons it lies in (the point’s own properties win on equal names). Points outside all areas stay unchanged, unless keep_unmatched is false.',
    },
    inputs: [featuresPort('points'), featuresPort('polygons'), param('keep_unmatched', 'bool', true)],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const points = itemsOf(inputs, 'points');
      portsCrs([
        ['points', points],
        ['polygons', itemsOf(inputs, 'polygons')],
      ]);
      const keepUnmatched = paramOf(inputs, 'keep_unmatched', true) !== false;
      const areas = (await polygonsOf(itemsOf(inputs, 'polygons'), 'polygons', ctx, [0, 0.1])).map((f) => ({
        f,
        box: bboxOf(f),
      }));
      const features = await eachChunked(
        points.length,
        ctx,
        (i) => {
          const p = featureOf(points, 'points', i);
          if (p.geometry.type !== 'Point') throw failure('not_a_point', { item: `points[${i}]`, type: p.geometry.type });
          const [x, y] = (p.geometry as Point).coordinates;
          const hit = areas.find(
            ({ f, box }) => x >= box[0] && y >= box[1] && x <= box[2] && y <= box[3] && booleanPointInPolygon([x, y], f),
          );
          if (!hit) return keepUnmatched ? datum(p) : undefined;
          return datum({ ...p, properties: { ...hit.f.properties, ...p.properties } });
        },
        [0.1, 1],
      );
      return { features };
    },
  },
  {
    id: 'geometry.clip_bbox',
    version: '1',
    verbose_name: { de: 'Auf Rechteck zuschneiden', en: 'Clip to bounding box' },
    doc: {
      de: 'Schneidet Linien und Flächen auf das Rechteck bbox zu; Punkte bleiben, wenn sie darin liegen. Features, von denen nichts übrig bleibt, fallen weg. Eigenschaften bleiben erhalten.',
      en: 'Clips lines and areas to the rectangle bbox; points are kept when they lie inside. Features of which nothing remains are left out. Properties are kept.',
    },
    inputs: [featuresPort(), { name: 'bbox', content_type: 'bbox' }],
    outputs: [featuresPort()],
    run: async (inputs, ctx) => {
      const items = itemsOf(inputs, 'features');
      const box = paramOf(inputs, 'bbox');
      if (!Array.isArray(box) || box.length !== 4 || !box.every((n) => typeof n === 'number' && Number.isFinite(n))) {
        throw failure('invalid_bbox');
      }
      const [w, s, e, n] = box as [number, number, number, number];
      if (w > e || s > n) throw failure('invalid_bbox');
      const inside = ([x, y]: number[]) => x >= w && x <= e && y >= s && y <= n;
      const features = await eachChunked(items.length, ctx, (i) => {
        const f = featureOf(items, 'features', i);
        const g = f.geometry;
        if (g.type === 'Point') return inside(g.coordinates) ? datum(f) : undefined;
        if (g.type === 'MultiPoint') {
          const coordinates = g.coordinates.filter(inside);
          return coordinates.length ? withGeometry(f, { type: 'MultiPoint', coordinates }) : undefined;
        }
        if (g.type === 'GeometryCollection') throw failure('unsupported_geometry', { item: `features[${i}]`, type: g.type });
        const clipped = guarded('features', i, () => bboxClip(f as GeoFeature<Polygon | MultiPolygon>, [w, s, e, n]));
        const c = clipped.geometry.coordinates as unknown[];
        const empty = c.length === 0 || c.every((part) => Array.isArray(part) && part.length === 0);
        return empty ? undefined : withGeometry(f, clipped.geometry);
      });
      return { features };
    },
  },
];
