import { useEffect, useRef, useState, type ReactElement } from 'react';
import {
  ArcType,
  Cartesian3,
  Color,
  GeoJsonDataSource,
  Rectangle,
  ScreenSpaceEventHandler,
  ScreenSpaceEventType,
  type Cartesian2,
  type CesiumWidget,
} from 'cesium';
import { useCesium } from 'resium';
import { featuresBbox, fitBbox, isBbox, mappableFeatures, type Bbox, type MapFeature } from '../../common/map-geometry';
import { BboxDrawing } from './bbox-drawing';
import type { MapViewProps } from './map-types';
import { maxZoomDistance } from './map-zoom';
import { FEATURE_INDEX, featureIndexOf, restyleFeature, scaleDenominatorOf, styleEntities } from './feature-styling';
import { ImageryLayers } from './imagery-layers';

/**
 * Browser tests pass an array here (before the page loads) to see every widget the map created
 * and check that each one was destroyed; nothing is kept when it is absent.
 */
declare global {
  var __werkbankMapProbe: CesiumWidget[] | undefined;
}

const colour = (css: string | undefined, fallback: string, alpha?: number) => {
  const c = Color.fromCssColorString(css ?? fallback) ?? Color.fromCssColorString(fallback);
  return alpha === undefined ? c : c.withAlpha(alpha);
};

/** What the map shows inside its widget: imagery, features, the bbox, the fitted view, hover, bbox drawing. */
export function MapContent(props: MapViewProps): ReactElement | null {
  const widget = useCesium().cesiumWidget;
  const { features, featureStyle, styleFeature, onScaleChange, onFeatureHover, bbox, imagery } = props;
  // The view's scale, for styles with scale ranges (two significant digits: small moves restyle nothing).
  const [scale, setScale] = useState<number>();
  // The index (in mappableFeatures) of the feature under the pointer, and the data source it is in.
  const [hovered, setHovered] = useState<number>();
  const hoveredRef = useRef<number>(undefined);
  const shownRef = useRef<{ source: GeoJsonDataSource; features: MapFeature[] }>(undefined);
  const hoverRef = useRef(onFeatureHover);
  hoverRef.current = onFeatureHover;

  useEffect(() => {
    if (!widget) return;
    globalThis.__werkbankMapProbe?.push(widget);
    // spec 000 §9: never closer than zoom level 19.
    widget.scene.screenSpaceCameraController.minimumZoomDistance = maxZoomDistance(widget.canvas.clientWidth || 400);
    // Cesium frees its GL resources on destroy but leaves the context to garbage collection, and
    // browsers cap live contexts (16 in Chromium): drop it once resium has destroyed the widget.
    const gl = (widget.scene as unknown as { context: { _gl: WebGLRenderingContext } }).context._gl;
    return () => {
      setTimeout(() => {
        if (widget.isDestroyed()) gl.getExtension('WEBGL_lose_context')?.loseContext();
      }, 0);
    };
  }, [widget]);

  useEffect(() => {
    if (!widget || (!styleFeature && !onScaleChange)) return;
    const update = () => {
      if (widget.isDestroyed()) return;
      const exact = scaleDenominatorOf(widget);
      const digits = 10 ** Math.max(0, Math.floor(Math.log10(exact)) - 1);
      const rounded = Math.round(exact / digits) * digits;
      setScale(rounded);
      onScaleChange?.(rounded);
    };
    update();
    return widget.camera.moveEnd.addEventListener(update);
  }, [widget, !!styleFeature, onScaleChange]);

  useEffect(() => {
    if (!widget || !features?.length || (styleFeature && scale === undefined)) return;
    let disposed = false;
    const source = new GeoJsonDataSource('features');
    const shown = mappableFeatures(features);
    // Each feature carries its index, to find it from its entities (styles, hover).
    const loaded = {
      ...shown,
      features: shown.features.map((f, i) => ({ ...f, properties: { ...(f.properties ?? {}), [FEATURE_INDEX]: i } })),
    };
    void source
      .load(loaded as never, {
        fill: colour(featureStyle?.fill, '#2d72d2', 0.4),
        stroke: colour(featureStyle?.stroke, '#184a90'),
        strokeWidth: featureStyle?.strokeWidth ?? 2,
        markerColor: colour(featureStyle?.stroke, '#184a90'),
        markerSize: 32,
      })
      .then(() => {
        if (disposed || widget.isDestroyed()) return;
        if (styleFeature) styleEntities(source, shown.features, styleFeature, scale ?? 1, hoveredRef.current);
        shownRef.current = { source, features: shown.features };
        void widget.dataSources.add(source);
        widget.scene.requestRender();
      });
    return () => {
      disposed = true;
      if (shownRef.current?.source === source) shownRef.current = undefined;
      if (!widget.isDestroyed()) widget.dataSources.remove(source, true);
    };
  }, [widget, features, featureStyle?.fill, featureStyle?.stroke, featureStyle?.strokeWidth, styleFeature, scale]);

  // Hover: the feature under the pointer is styled with {hover: true} and reported.
  const hoverable = !!styleFeature || !!onFeatureHover;
  useEffect(() => {
    if (!widget || !hoverable) return;
    const handler = new ScreenSpaceEventHandler(widget.canvas);
    const pointAt = (position: Cartesian2 | undefined) => {
      if (!position || widget.isDestroyed()) return;
      const picked: unknown = widget.scene.pick(position);
      const index = featureIndexOf((picked as { id?: unknown } | undefined)?.id);
      if (index === hoveredRef.current) return;
      hoveredRef.current = index;
      setHovered(index);
      hoverRef.current?.(index === undefined ? undefined : shownRef.current?.features[index]);
    };
    handler.setInputAction((e: { endPosition: Cartesian2 }) => pointAt(e.endPosition), ScreenSpaceEventType.MOUSE_MOVE);
    return () => handler.destroy();
  }, [widget, hoverable]);

  useEffect(() => {
    const shown = shownRef.current;
    if (!widget || hovered === undefined || !styleFeature || !shown) return;
    restyleFeature(shown.source, shown.features, styleFeature, scale ?? 1, hovered, true);
    widget.scene.requestRender();
    return () => {
      // The pointer left it (or the styles change): back to its normal look, if it is still shown.
      if (widget.isDestroyed() || shownRef.current !== shown) return;
      restyleFeature(shown.source, shown.features, styleFeature, scale ?? 1, hovered, false);
      widget.scene.requestRender();
    };
  }, [widget, hovered, styleFeature, scale]);

  useEffect(() => {
    if (!widget || !isBbox(bbox)) return;
    const [w, s, e, n] = bbox;
    const entity = widget.entities.add({
      polyline: {
        positions: Cartesian3.fromDegreesArray([w, s, e, s, e, n, w, n, w, s]),
        width: 2,
        arcType: ArcType.RHUMB,
        material: colour(featureStyle?.stroke, '#c87619'),
      },
    });
    widget.scene.requestRender();
    return () => {
      if (!widget.isDestroyed()) widget.entities.remove(entity);
    };
  }, [widget, bbox, featureStyle?.stroke]);

  useEffect(() => {
    if (!widget) return;
    const extents = (imagery ?? []).flatMap((i) => (i.bbox ? [i.bbox] : []));
    const boxes = [featuresBbox(features ?? []), isBbox(bbox) ? bbox : undefined, ...extents].filter((b): b is Bbox => !!b);
    if (!boxes.length) return;
    const target = boxes.reduce(union);
    fitTo(widget, target);
  }, [widget, features, bbox, JSON.stringify(imagery?.map((i) => i.bbox))]);

  return (
    <>
      <ImageryLayers imagery={imagery} />
      {props.onBboxChange && <BboxDrawing widget={widget} onBboxChange={props.onBboxChange} />}
    </>
  );
}

const union = (a: Bbox, b: Bbox): Bbox => [
  Math.min(a[0], b[0]),
  Math.min(a[1], b[1]),
  Math.max(a[2], b[2]),
  Math.max(a[3], b[3]),
];

/** Shows `target` with 7 px padding, never closer than zoom level 19 (spec 000 §9). */
function fitTo(widget: CesiumWidget, target: Bbox): void {
  const canvas = widget.canvas;
  const [w, s, e, n] = fitBbox(target, canvas.clientWidth || 400, canvas.clientHeight || 400);
  widget.camera.setView({ destination: Rectangle.fromDegrees(w, s, e, n) });
  widget.scene.requestRender();
}
