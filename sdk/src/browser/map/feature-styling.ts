import {
  BillboardGraphics,
  BoundingSphere,
  Cartesian2,
  Color,
  ColorMaterialProperty,
  ConstantPositionProperty,
  Entity,
  JulianDate,
  LabelGraphics,
  LabelStyle,
  OrthographicOffCenterFrustum,
  PerspectiveFrustum,
  PointGraphics,
  PolylineDashMaterialProperty,
  PolylineGraphics,
  SceneMode,
  VerticalOrigin,
  type Cartesian3,
  type CesiumWidget,
  type GeoJsonDataSource,
  type PolygonHierarchy,
} from 'cesium';
import type { MapFeature } from '../../common/map-geometry';
import type { MapFeatureStyle, MapFeatureStyler } from './map-types';

/** The property GeoJSON entities carry to find their feature again. */
export const FEATURE_INDEX = '__wb_feature';

/** OGC's standard pixel: 0.28 mm. */
const PIXEL_M = 0.00028;

/** The scale denominator of the map's view (metres per pixel at the centre over the OGC pixel). */
export function scaleDenominatorOf(widget: CesiumWidget): number {
  const canvas = widget.canvas;
  const camera = widget.camera;
  let metresPerPixel: number;
  if (widget.scene.mode === SceneMode.SCENE2D && camera.frustum instanceof OrthographicOffCenterFrustum) {
    metresPerPixel = ((camera.frustum.right ?? 0) - (camera.frustum.left ?? 0)) / (canvas.clientWidth || 400);
  } else {
    const fovy = camera.frustum instanceof PerspectiveFrustum ? (camera.frustum.fovy ?? 1) : 1;
    metresPerPixel = (2 * camera.positionCartographic.height * Math.tan(fovy / 2)) / (canvas.clientHeight || 400);
  }
  return Math.max(1, metresPerPixel / PIXEL_M);
}

const css = (c: string | undefined, fallback: string, alpha = 1) =>
  (Color.fromCssColorString(c ?? fallback) ?? Color.fromCssColorString(fallback)).withAlpha(alpha);

/** A dash array in px as Cesium's 16-bit dash pattern over `length` px. */
function dashMaterial(color: Color, dash: readonly number[]): PolylineDashMaterialProperty {
  const pattern = dash.length % 2 ? [...dash, ...dash] : [...dash];
  const length = Math.max(
    1,
    pattern.reduce((a, b) => a + b, 0),
  );
  let bits = 0;
  for (let i = 0; i < 16; i++) {
    let at = ((i + 0.5) / 16) * length;
    let on = true;
    for (const d of pattern) {
      if (at < d) break;
      at -= d;
      on = !on;
    }
    if (on) bits |= 1 << (15 - i);
  }
  return new PolylineDashMaterialProperty({ color, dashLength: length, dashPattern: bits });
}

/** Gives `entity` (from a GeoJSON data source) the look of `style`. */
function applyStyle(entity: Entity, style: MapFeatureStyle, now: JulianDate): void {
  const stroke = css(style.stroke, '#184a90', style.strokeOpacity ?? 1);
  const width = style.strokeWidth ?? 2;
  const lineMaterial = style.dash?.length ? dashMaterial(stroke, style.dash) : new ColorMaterialProperty(stroke);
  let anchor: Cartesian3 | undefined = entity.position?.getValue(now);
  entity.label = undefined;
  if (entity.polygon) {
    entity.polyline = undefined;
    entity.polygon.material = new ColorMaterialProperty(css(style.fill, '#2d72d2', style.fillOpacity ?? 0.4));
    entity.polygon.outline = undefined;
    const hierarchy = entity.polygon.hierarchy?.getValue(now) as PolygonHierarchy | undefined;
    const ring = hierarchy?.positions ?? [];
    // WebGL draws polygon outlines 1 px wide: the outline is a polyline along the outer ring.
    if (ring.length && width > 0)
      entity.polyline = new PolylineGraphics({ positions: [...ring, ring[0]], width, material: lineMaterial });
    if (ring.length) anchor = BoundingSphere.fromPoints(ring).center;
  } else if (entity.polyline) {
    entity.polyline.material = lineMaterial;
    entity.polyline.width = width as never;
    const positions = entity.polyline.positions?.getValue(now) as Cartesian3[] | undefined;
    if (positions?.length) anchor = positions[Math.floor(positions.length / 2)];
  } else if (entity.billboard || entity.point) {
    const p = style.point ?? { size: 8 };
    entity.billboard = undefined;
    entity.point = undefined;
    if (p.image)
      entity.billboard = new BillboardGraphics({
        image: p.image,
        width: p.size,
        height: p.size,
        color: Color.WHITE.withAlpha(p.opacity ?? 1),
        verticalOrigin: VerticalOrigin.CENTER,
      });
    else
      entity.point = new PointGraphics({
        pixelSize: p.size,
        color: css(style.fill, '#2d72d2', style.fillOpacity ?? 1),
        outlineColor: stroke,
        outlineWidth: width,
      });
  }
  if (style.label && anchor) {
    const l = style.label;
    if (!entity.position) entity.position = new ConstantPositionProperty(anchor);
    entity.label = new LabelGraphics({
      text: l.text,
      font: `${l.size}px sans-serif`,
      fillColor: css(l.fill, '#000000'),
      ...(l.haloFill
        ? { outlineColor: css(l.haloFill, '#ffffff'), outlineWidth: (l.haloWidth ?? 1) * 2, style: LabelStyle.FILL_AND_OUTLINE }
        : {}),
      pixelOffset: new Cartesian2(l.dx ?? 0, -(l.dy ?? 0)),
    });
  }
}

/** The copies made for a feature's further styles, per data source and feature index. */
const copiesOf = new WeakMap<GeoJsonDataSource, Map<number, Entity[]>>();

/** The feature index an entity of the map's data source carries (FEATURE_INDEX), if any. */
export function featureIndexOf(entity: unknown, now = JulianDate.now()): number | undefined {
  if (!(entity instanceof Entity)) return undefined;
  const value: unknown = entity.properties?.[FEATURE_INDEX]?.getValue(now);
  return typeof value === 'number' ? value : undefined;
}

/**
 * Styles the entities a GeoJsonDataSource made from `features` (each carries FEATURE_INDEX): the
 * first style on the entity itself, further styles on copies of its geometry; no style hides it.
 * The feature at index `hovered` is styled with `{hover: true}`.
 */
export function styleEntities(
  source: GeoJsonDataSource,
  features: readonly MapFeature[],
  styler: MapFeatureStyler,
  scaleDenominator: number,
  hovered?: number,
): void {
  const now = JulianDate.now();
  const byFeature = new Map<number, Entity[]>();
  for (const entity of source.entities.values) {
    const index = featureIndexOf(entity, now);
    if (index === undefined || copiesOf.get(source)?.get(index)?.includes(entity)) continue;
    byFeature.set(index, [...(byFeature.get(index) ?? []), entity]);
  }
  source.entities.suspendEvents();
  for (const [index, entities] of byFeature)
    restyle(source, entities, index, features[index], styler, scaleDenominator, index === hovered, now);
  source.entities.resumeEvents();
}

/** Styles again the feature at `index` (its hover state changed). */
export function restyleFeature(
  source: GeoJsonDataSource,
  features: readonly MapFeature[],
  styler: MapFeatureStyler,
  scaleDenominator: number,
  index: number,
  hover: boolean,
): void {
  const now = JulianDate.now();
  const copies = copiesOf.get(source)?.get(index) ?? [];
  const entities = source.entities.values.filter((e) => featureIndexOf(e, now) === index && !copies.includes(e));
  source.entities.suspendEvents();
  restyle(source, entities, index, features[index], styler, scaleDenominator, hover, now);
  source.entities.resumeEvents();
}

function restyle(
  source: GeoJsonDataSource,
  entities: Entity[],
  index: number,
  feature: MapFeature | undefined,
  styler: MapFeatureStyler,
  scaleDenominator: number,
  hover: boolean,
  now: JulianDate,
): void {
  let copies = copiesOf.get(source);
  if (!copies) copiesOf.set(source, (copies = new Map()));
  for (const copy of copies.get(index) ?? []) source.entities.remove(copy);
  copies.delete(index);
  const styles = feature ? styler(feature, scaleDenominator, { hover }) : [];
  const made: Entity[] = [];
  for (const entity of entities) {
    entity.show = styles.length > 0;
    if (!styles.length) continue;
    styles.slice(1).forEach((style) => {
      const copy = new Entity({
        position: entity.position,
        polygon: entity.polygon?.clone(),
        polyline: entity.polyline?.clone(),
        billboard: entity.billboard?.clone(),
        point: entity.point?.clone(),
        properties: { [FEATURE_INDEX]: index },
      });
      applyStyle(copy, style, now);
      source.entities.add(copy);
      made.push(copy);
    });
    applyStyle(entity, styles[0], now);
  }
  if (made.length) copies.set(index, made);
}
