import {
  baseLayer,
  globeMsaaSamples,
  BoundingSphere,
  Cartesian2,
  Cartesian3,
  Cartographic,
  CesiumMath,
  CesiumWidget,
  Color,
  GeoJsonDataSource,
  HeadingPitchRange,
  PointGraphics,
  PolygonHierarchy,
  imageryProvider,
  Rectangle,
  ScreenSpaceEventHandler,
  ScreenSpaceEventType,
  tileUrlTemplate,
  useCesium,
  useEffect,
  useMemo,
  useRef,
  type CesiumWidgetInstance,
  type ImageryLayer,
  type ReactElement,
  type ReactKeyboardEvent,
} from '@werkbank/sdk/globe';
import type { MapFeature } from '@werkbank/sdk';
import type { CameraPosition } from '../common/view-tree';
import { fittableExtent } from '../common/view-scene';
import type { GlobePick } from './feature-info';
import { imageryName, type DrawnImagery } from './viewer-state';

export type { GlobePick };

/** Where the camera goes: an extent to fit, or a camera position (a view's home, a POI). */
export type CameraTarget =
  | { kind: 'extent'; bbox: [number, number, number, number]; duration?: number }
  | { kind: 'camera'; camera: CameraPosition; duration?: number }
  /** A POI: the camera at `range` metres from the point, turned by heading and pitch (degrees). */
  | { kind: 'look'; lon: number; lat: number; height: number; heading: number; pitch: number; range: number; duration?: number };

interface GlobeProps {
  label: string;
  baseMapTileUrl: string | null;
  imagery: readonly DrawnImagery[];
  /** A new object moves the camera (flies when `duration` is given, else jumps). */
  target: CameraTarget | null;
  onPick: (pick: GlobePick) => void;
  /** Told the camera whenever it comes to rest (for the share link). */
  onCamera: (camera: CameraPosition) => void;
  /** Told the place under the pointer (undefined off the globe), for the coordinates readout. */
  onPointer: (at: GlobePick | undefined) => void;
  /** Filled with what the viewer may ask of the globe. */
  control: { current?: GlobeControl };
  /** The points of a measurement (lon, lat), drawn as a path and, from three points, an area. */
  measure: readonly [number, number][];
  /** Whether three measured points are drawn as an area too (a line being drawn is not one). */
  measureArea?: boolean;
  /** Features drawn as vectors (the switchboard preview's frames); a new object redraws its layer. */
  vectors?: readonly VectorLayer[];
}

/** Features drawn as vectors: points as pins, lines and areas in the layer's colour. */
export interface VectorLayer {
  /** The data source's name; a click on one of its features reports it with the feature's id. */
  name: string;
  features: readonly MapFeature[];
  color: string;
  /** Drawn wider (the selected feature). */
  emphasis?: boolean;
}

/** The property each drawn feature carries its id in. */
const ITEM = '__wb_item';

const imageryKey = (i: DrawnImagery) => `${i.kind}|${i.url}|${imageryName(i)}`;

/** The camera as a position in degrees and metres. */
export function cameraOf(widget: CesiumWidgetInstance): CameraPosition {
  const c = widget.camera;
  const at = c.positionCartographic;
  const round = (v: number, digits: number) => Number(v.toFixed(digits));
  return {
    lon: round(CesiumMath.toDegrees(at.longitude), 6),
    lat: round(CesiumMath.toDegrees(at.latitude), 6),
    height: round(at.height, 1),
    heading: round(CesiumMath.toDegrees(c.heading), 2),
    pitch: round(CesiumMath.toDegrees(c.pitch), 2),
    roll: round(CesiumMath.toDegrees(c.roll), 2),
  };
}

function move(widget: CesiumWidgetInstance, target: CameraTarget): void {
  if (target.kind === 'look') {
    const sphere = new BoundingSphere(Cartesian3.fromDegrees(target.lon, target.lat, target.height), 1);
    const offset = new HeadingPitchRange(CesiumMath.toRadians(target.heading), CesiumMath.toRadians(target.pitch), target.range);
    widget.camera.flyToBoundingSphere(sphere, { offset, duration: target.duration ?? 0 });
    widget.scene.requestRender();
    return;
  }
  const destination =
    target.kind === 'extent'
      ? Rectangle.fromDegrees(...fittableExtent(target.bbox))
      : Cartesian3.fromDegrees(target.camera.lon, target.camera.lat, target.camera.height);
  const orientation =
    target.kind === 'camera'
      ? {
          heading: CesiumMath.toRadians(target.camera.heading),
          pitch: CesiumMath.toRadians(target.camera.pitch),
          roll: CesiumMath.toRadians(target.camera.roll),
        }
      : undefined;
  if (target.duration) widget.camera.flyTo({ destination, orientation, duration: target.duration });
  else widget.camera.setView({ destination, orientation });
  widget.scene.requestRender();
}

/** The drawn imagery, kept in step with `imagery`: layers added and removed by key, opacity and order set in place. */
/**
 * Marks for the browser's performance timeline (bench/viewer): the first frame drawn with the
 * view's imagery, and the first frame after which every tile of the globe and the imagery is loaded.
 */
export const FIRST_FRAME_MARK = 'werkbank-viewer-first-frame';
export const SETTLED_MARK = 'werkbank-viewer-settled';

function markFrames(widget: CesiumWidgetInstance): void {
  let first = false;
  const remove = widget.scene.postRender.addEventListener(() => {
    if (!first) {
      first = true;
      performance.mark(FIRST_FRAME_MARK);
    }
    if (widget.scene.globe.tilesLoaded) {
      performance.mark(SETTLED_MARK);
      remove();
    }
  });
  widget.scene.requestRender();
}

function Imagery({ imagery }: { imagery: GlobeProps['imagery'] }): null {
  const widget = useCesium().cesiumWidget;
  const drawn = useRef(new Map<string, ImageryLayer>());
  const marked = useRef(false);
  useEffect(() => {
    if (!widget) return;
    if (!marked.current) {
      marked.current = true;
      markFrames(widget);
    }
    const wanted = new Set(imagery.map(imageryKey));
    for (const [key, layer] of drawn.current)
      if (!wanted.has(key)) {
        widget.imageryLayers.remove(layer, true);
        drawn.current.delete(key);
      }
    for (const item of imagery) {
      let layer = drawn.current.get(imageryKey(item));
      if (!layer) {
        layer = widget.imageryLayers.addImageryProvider(imageryProvider(item));
        drawn.current.set(imageryKey(item), layer);
      }
      layer.alpha = item.opacity;
      // Bottom first: each one raised to the top ends with the last on top.
      widget.imageryLayers.raiseToTop(layer);
    }
    widget.scene.requestRender();
  }, [widget, imagery]);
  return null;
}

/** The place on the globe under a pixel of the canvas, with the metres a pixel spans there; undefined off the globe. */
function pickAt(widget: CesiumWidgetInstance, position: { x: number; y: number }): GlobePick | undefined {
  const at = widget.camera.pickEllipsoid(new Cartesian2(position.x, position.y));
  if (!at) return undefined;
  const c = Cartographic.fromCartesian(at);
  const distance = Cartesian3.distance(widget.camera.positionWC, at);
  const fov = (widget.camera.frustum as unknown as { fov?: number }).fov ?? Math.PI / 3;
  const metresPerPixel = (2 * distance * Math.tan(fov / 2)) / Math.max(1, widget.scene.canvas.clientHeight);
  return { lon: CesiumMath.toDegrees(c.longitude), lat: CesiumMath.toDegrees(c.latitude), metresPerPixel };
}

/** What the viewer may ask of the globe outside events: the place in the middle of the map. */
export interface GlobeControl {
  center(): GlobePick | undefined;
  /** The part of the globe the map shows, [west, south, east, north] in degrees; undefined when it shows none. */
  viewBox(): [number, number, number, number] | undefined;
}

/** Clicks, pointer moves, camera moves and the camera target. */
function Behaviour({
  target,
  onPick,
  onCamera,
  onPointer,
  control,
}: Pick<GlobeProps, 'target' | 'onPick' | 'onCamera' | 'onPointer' | 'control'>): null {
  const widget = useCesium().cesiumWidget;
  const pick = useRef(onPick);
  pick.current = onPick;
  const camera = useRef(onCamera);
  camera.current = onCamera;
  const pointer = useRef(onPointer);
  pointer.current = onPointer;
  useEffect(() => {
    if (!widget) return;
    control.current = {
      center: () => pickAt(widget, { x: widget.scene.canvas.clientWidth / 2, y: widget.scene.canvas.clientHeight / 2 }),
      viewBox: () => {
        const r = widget.camera.computeViewRectangle();
        if (!r) return undefined;
        const d = CesiumMath.toDegrees;
        return [d(r.west), d(r.south), d(r.east), d(r.north)];
      },
    };
    const handler = new ScreenSpaceEventHandler(widget.scene.canvas);
    handler.setInputAction((e: { position: { x: number; y: number } }) => {
      const at = pickAt(widget, e.position);
      if (at) pick.current({ ...at, feature: featureAt(widget, e.position) });
    }, ScreenSpaceEventType.LEFT_CLICK);
    let frame = 0;
    handler.setInputAction((e: { endPosition: { x: number; y: number } }) => {
      // At most once a frame: the readout follows the pointer without slowing the map.
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => pointer.current(pickAt(widget, e.endPosition)));
    }, ScreenSpaceEventType.MOUSE_MOVE);
    const settled = widget.camera.moveEnd.addEventListener(() => camera.current(cameraOf(widget)));
    return () => {
      cancelAnimationFrame(frame);
      settled();
      handler.destroy();
      control.current = undefined;
    };
  }, [widget]);
  useEffect(() => {
    if (widget && target) move(widget, target);
  }, [widget, target]);
  return null;
}

/** The drawn feature under a pixel: its data source's name and id, or undefined. */
function featureAt(widget: CesiumWidgetInstance, position: { x: number; y: number }): GlobePick['feature'] {
  // A 15 px window: a pin's transparent parts and thin lines are hit without aiming to the pixel.
  const picked = widget.scene.pick(new Cartesian2(position.x, position.y), 15, 15) as
    { id?: { properties?: { [ITEM]?: { getValue(): unknown } }; entityCollection?: { owner?: { name?: string } } } } | undefined;
  const entity = picked?.id;
  const item = entity?.properties?.[ITEM]?.getValue();
  const source = entity?.entityCollection?.owner?.name;
  return typeof item === 'number' && typeof source === 'string' ? { source, item } : undefined;
}

/** The vector layers, kept in step with `vectors`: a layer object drawn once, removed when it goes. */
function Vectors({ vectors }: { vectors: readonly VectorLayer[] }): null {
  const widget = useCesium().cesiumWidget;
  const drawn = useRef(new Map<VectorLayer, GeoJsonDataSource>());
  useEffect(() => {
    if (!widget) return;
    const wanted = new Set(vectors);
    for (const [layer, source] of drawn.current)
      if (!wanted.has(layer)) {
        widget.dataSources.remove(source, true);
        drawn.current.delete(layer);
      }
    for (const layer of vectors) {
      if (drawn.current.has(layer)) continue;
      const color = Color.fromCssColorString(layer.color);
      const source = new GeoJsonDataSource(layer.name);
      drawn.current.set(layer, source);
      const collection = {
        type: 'FeatureCollection',
        features: layer.features.map((f) => ({ ...f, properties: { ...(f.properties ?? {}), [ITEM]: f.id } })),
      };
      void source
        .load(collection, {
          stroke: color,
          strokeWidth: layer.emphasis ? 5 : 3,
          fill: color.withAlpha(layer.emphasis ? 0.45 : 0.25),
        })
        .then(() => {
          // Not when the layer went (or was drawn anew) while its features loaded.
          if (widget.isDestroyed() || drawn.current.get(layer) !== source) return;
          // Points as dots rather than pins: a dot is hit anywhere on it, and covers no neighbour.
          for (const entity of source.entities.values) {
            if (!entity.billboard) continue;
            entity.billboard = undefined;
            entity.point = new PointGraphics({
              pixelSize: layer.emphasis ? 16 : 12,
              color,
              outlineColor: Color.WHITE,
              outlineWidth: 2,
            });
          }
          void widget.dataSources.add(source);
          widget.scene.requestRender();
        });
    }
    widget.scene.requestRender();
  }, [widget, vectors]);
  useEffect(
    () => () => {
      if (!widget || widget.isDestroyed()) return;
      for (const source of drawn.current.values()) widget.dataSources.remove(source, true);
      drawn.current.clear();
    },
    [widget],
  );
  return null;
}

/** The measured path (and, from three points, its area) drawn on the globe. */
function Measurement({ points, area = true }: { points: readonly [number, number][]; area?: boolean }): null {
  const widget = useCesium().cesiumWidget;
  useEffect(() => {
    if (!widget || !points.length) return;
    const positions = points.map(([lon, lat]) => Cartesian3.fromDegrees(lon, lat));
    const added = [
      ...points.map((_, i) =>
        widget.entities.add({ position: positions[i], point: { pixelSize: 8, color: Color.fromCssColorString('#d33d17') } }),
      ),
      ...(points.length > 1
        ? [
            widget.entities.add({
              polyline: {
                positions: [...positions, ...(points.length > 2 ? [positions[0]] : [])],
                width: 3,
                material: Color.fromCssColorString('#d33d17'),
              },
            }),
          ]
        : []),
      ...(points.length > 2 && area
        ? [
            widget.entities.add({
              polygon: {
                hierarchy: new PolygonHierarchy(positions),
                material: Color.fromCssColorString('#d33d17').withAlpha(0.2),
              },
            }),
          ]
        : []),
    ];
    widget.scene.requestRender();
    return () => {
      if (widget.isDestroyed()) return;
      for (const e of added) widget.entities.remove(e);
      widget.scene.requestRender();
    };
  }, [widget, points, area]);
  return null;
}

/**
 * The viewer's globe: a bare CesiumWidget over the base map with the view's imagery. By keyboard
 * (the region has focus): arrows pan, + and − zoom.
 */
export function ViewerGlobe(props: GlobeProps): ReactElement {
  const base = useMemo(() => baseLayer(tileUrlTemplate(props.baseMapTileUrl)), [props.baseMapTileUrl]);
  const widgetRef = useRef<{ cesiumElement?: CesiumWidgetInstance } | null>(null);
  const onKey = (e: ReactKeyboardEvent) => {
    const widget = widgetRef.current?.cesiumElement;
    if (!widget) return;
    const camera = widget.camera;
    const step = camera.positionCartographic.height * 0.1;
    const moves: Record<string, () => void> = {
      ArrowUp: () => camera.moveUp(step),
      ArrowDown: () => camera.moveDown(step),
      ArrowLeft: () => camera.moveLeft(step),
      ArrowRight: () => camera.moveRight(step),
      '+': () => camera.zoomIn(step * 3),
      '-': () => camera.zoomOut(step * 3),
    };
    const run = moves[e.key];
    if (!run) return;
    e.preventDefault();
    run();
    widget.scene.requestRender();
  };
  return (
    <div
      className="wbv-globe"
      role="region"
      aria-label={props.label}
      tabIndex={0}
      onKeyDown={onKey}
      data-imagery={props.imagery.map(imageryName).join(',')}
    >
      <CesiumWidget
        ref={widgetRef as never}
        full
        baseLayer={base}
        requestRenderMode
        maximumRenderTimeChange={Infinity}
        msaaSamples={globeMsaaSamples()}
      >
        <Imagery imagery={props.imagery} />
        <Behaviour
          target={props.target}
          onPick={props.onPick}
          onCamera={props.onCamera}
          onPointer={props.onPointer}
          control={props.control}
        />
        <Measurement points={props.measure} area={props.measureArea} />
        {props.vectors && <Vectors vectors={props.vectors} />}
      </CesiumWidget>
    </div>
  );
}
