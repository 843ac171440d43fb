import type { Feature, MultiPolygon, Point, Polygon } from 'geojson';
import { bbox as bboxOf } from '@turf/bbox';
import { bboxClip } from '@turf/bbox-clip';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { difference } from '@turf/difference';
import { featureCollection } from '@turf/helpers';
import { intersect } from '@turf/intersect';
import { union } from '@turf/union';
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

type Area = GeoFeature<Polygon | MultiPolygon>;

/** The polygons of a port, checked item by item. */
const polygonsOf = (items: ReturnType<typeof itemsOf>, port: string, ctx: FunctionRunContext, span: [number, number]) =>
  eachChunked(items.length, ctx, (i) => polygonOf(items, port, i), span);

/** Areas merged per union call; the abort signal is checked between calls. */
const UNION_CHUNK = 100;

/**
 * All areas merged into one (null for none), a chunk at a time so an abort takes effect between
 * chunks. A failure of the union names the port, since no single feature is to blame.
 */
async function merged(areas: Area[], port: string, ctx: FunctionRunContext): Promise<Area | null> {
  let acc: Area | null = areas.length === 1 ? areas[0] : null;
  for (let start = 0; areas.length > 1 && start < areas.length; start += UNION_CHUNK) {
    ctx.signal.throwIfAborted();
    const chunk = areas.slice(start, start + UNION_CHUNK);
    const parts = acc ? [acc, ...chunk] : chunk;
    try {
      acc = parts.length === 1 ? parts[0] : ((union(featureCollection(parts)) as Area | null) ?? acc);
    } catch (e) {
      throw failure('union_failed', { port, reason: e instanceof Error ? e.message : String(e) });
    }
    if (start + UNION_CHUNK < areas.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return acc;
}

/**
 * Every area of port a overlaid with the areas of port b merged into one mask: `op` gives the new
 * geometry (properties of a are kept) or null, which leaves the area out. Without areas in b, a is
 * kept unchanged or left out entirely (`withoutMask`). A failure of `op` names the feature of a.
 */
async function overlayEach(
  inputs: FunctionInputs,
  ctx: FunctionRunContext,
  withoutMask: 'keep' | 'drop',
  op: (f: Area, mask: Area) => Feature<Polygon | MultiPolygon> | null,
): Promise<FunctionOutputs> {
  const a = itemsOf(inputs, 'a');
  const mask = await merged(await polygonsOf(itemsOf(inputs, 'b'), 'b', ctx, [0, 0.1]), 'b', ctx);
  if (!mask && withoutMask === 'drop') return { features: [] };
  const features = await eachChunked(
    a.length,
    ctx,
    (i) => {
      const f = polygonOf(a, 'a', i);
      if (!mask) return datum(f);
      const result = guarded('a', i, () => op(f, mask));
      return result ? withGeometry(f, result.geometry) : undefined;
    },
    [0.1, 1],
  );
  return { features };
}

export const OVERLAY_FUNCTIONS: FunctionDescriptor[] = [
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
    run: (inputs, ctx) => overlayEach(inputs, ctx, 'drop', (f, mask) => intersect(featureCollection([f, mask]))),
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
    run: (inputs, ctx) => overlayEach(inputs, ctx, 'keep', (f, mask) => difference(featureCollection([f, mask]))),
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
      const areas = [
        ...(await polygonsOf(itemsOf(inputs, 'a'), 'a', ctx, [0, 0.4])),
        ...(await polygonsOf(itemsOf(inputs, 'b'), 'b', ctx, [0.4, 0.5])),
      ];
      const all = await merged(areas, 'a', ctx);
      ctx.progress(1);
      return { features: all ? [datum({ type: 'Feature', geometry: all.geometry, properties: {} })] : [] };
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
      const areas = await polygonsOf(itemsOf(inputs, 'features'), 'features', ctx, [0, 0.5]);
      const groups = new Map<string, { value: unknown; areas: Area[] }>();
      for (const f of areas) {
        const value = attribute ? (f.properties[attribute] ?? null) : null;
        const key = JSON.stringify(value);
        const group = groups.get(key) ?? { value, areas: [] };
        group.areas.push(f);
        groups.set(key, group);
      }
      const features = [];
      for (const group of groups.values()) {
        ctx.signal.throwIfAborted();
        const all = await merged(group.areas, 'features', ctx);
        if (all)
          features.push(
            datum({ type: 'Feature', geometry: all.geometry, properties: attribute ? { [attribute]: group.value } : {} }),
          );
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
