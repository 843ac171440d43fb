import { useEffect, useState, type ReactElement } from 'react';
import { Button } from '@blueprintjs/core';
import {
  ArcType,
  Cartesian3,
  Cartographic,
  Color,
  Math as CesiumMath,
  ScreenSpaceEventHandler,
  ScreenSpaceEventType,
  type Cartesian2,
  type CesiumWidget,
  type Entity,
} from 'cesium';
import { useT } from '@werkbank/kernel/browser';
import type { Bbox } from '../../common/map-geometry';

interface Props {
  widget: CesiumWidget | undefined;
  onBboxChange: (bbox: Bbox) => void;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The bbox spanned by two corners, west ≤ east and south ≤ north, in degrees. */
function spanned(a: Cartographic, b: Cartographic): Bbox {
  const d = CesiumMath.toDegrees;
  return [
    round(d(Math.min(a.longitude, b.longitude))),
    round(d(Math.min(a.latitude, b.latitude))),
    round(d(Math.max(a.longitude, b.longitude))),
    round(d(Math.max(a.latitude, b.latitude))),
  ];
}

/**
 * Draws a bbox (a new one replaces the shown one): press the button, then drag on the map. The
 * camera holds still while drawing; releasing reports the bbox through `onBboxChange`.
 */
export function BboxDrawing({ widget, onBboxChange }: Props): ReactElement {
  const t = useT();
  const [drawing, setDrawing] = useState(false);

  useEffect(() => {
    if (!widget || !drawing) return;
    const controller = widget.scene.screenSpaceCameraController;
    controller.enableInputs = false;
    const handler = new ScreenSpaceEventHandler(widget.canvas);
    const pick = (p: Cartesian2) => {
      const c = widget.camera.pickEllipsoid(p, widget.scene.ellipsoid);
      return c ? Cartographic.fromCartesian(c) : undefined;
    };
    let start: Cartographic | undefined;
    let current: Bbox | undefined;
    let preview: Entity | undefined;
    handler.setInputAction((e: { position: Cartesian2 }) => {
      start = pick(e.position);
    }, ScreenSpaceEventType.LEFT_DOWN);
    handler.setInputAction((e: { endPosition: Cartesian2 }) => {
      const end = start && pick(e.endPosition);
      if (!start || !end) return;
      current = spanned(start, end);
      const [w, s, east, n] = current;
      if (preview) widget.entities.remove(preview);
      preview = widget.entities.add({
        polyline: {
          positions: Cartesian3.fromDegreesArray([w, s, east, s, east, n, w, n, w, s]),
          width: 2,
          arcType: ArcType.RHUMB,
          material: Color.ORANGE,
        },
      });
      widget.scene.requestRender();
    }, ScreenSpaceEventType.MOUSE_MOVE);
    handler.setInputAction(() => {
      if (current && current[0] < current[2] && current[1] < current[3]) onBboxChange(current);
      start = undefined;
      setDrawing(false);
    }, ScreenSpaceEventType.LEFT_UP);
    return () => {
      handler.destroy();
      if (widget.isDestroyed()) return;
      controller.enableInputs = true;
      if (preview) widget.entities.remove(preview);
      widget.scene.requestRender();
    };
  }, [widget, drawing, onBboxChange]);

  return (
    <Button
      className="wb-map-draw"
      icon="widget"
      active={drawing}
      onClick={() => setDrawing((d) => !d)}
      text={drawing ? t('map.drawing_bbox') : t('map.draw_bbox')}
      style={{ position: 'absolute', top: 8, right: 8, zIndex: 1 }}
    />
  );
}
