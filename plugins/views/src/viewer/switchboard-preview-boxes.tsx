/** The switchboard preview's boxes on the map: drawing into a frame, and a clicked feature (decision 0090). */
import type { ReactElement } from '@werkbank/sdk/globe';
import { DRAW_MIN_POINTS, drawnGeometry, type DrawMode, type MapFeature, type SwitchboardMapFrame } from '@werkbank/sdk';
import type { ViewerT } from './viewer-i18n';
import { BoxHeader, MapBox } from './viewer-parts';

export interface Selection {
  frame: SwitchboardMapFrame;
  feature: MapFeature;
}

export interface Drawing {
  frame: SwitchboardMapFrame;
  mode: DrawMode;
  /** The item whose geometry is replaced; a new feature otherwise. */
  replace?: number;
  points: [number, number][];
}

/** The kind of geometry a feature can be drawn anew as. */
const geometryMode = (f: MapFeature): DrawMode | undefined => {
  const type = f.geometry?.type;
  return type === 'Point' || type === 'LineString' || type === 'Polygon' ? type : undefined;
};

/** Drawing into a frame: the points set so far, the map's centre by keyboard, undo, save and cancel. */
export function DrawingBox(props: {
  drawing: Drawing;
  t: ViewerT;
  busy: boolean;
  onCenter(): void;
  onUndo(): void;
  onSave(): void;
  onCancel(): void;
}): ReactElement {
  const { drawing, t } = props;
  const name = drawing.frame.name || drawing.frame.type_name;
  return (
    <section className="wbv-measure" aria-label={t('sb_drawing', { name })}>
      <p>
        <strong>{t('sb_drawing', { name })}</strong>
      </p>
      <p>{t('sb_draw_help')}</p>
      <p aria-live="polite">{t('sb_points', { count: drawing.points.length, needed: DRAW_MIN_POINTS[drawing.mode] })}</p>
      <button type="button" className="wbv-button" onClick={props.onCenter}>
        {t('measure_center')}
      </button>{' '}
      <button type="button" className="wbv-button" disabled={!drawing.points.length} onClick={props.onUndo}>
        {t('sb_undo_point')}
      </button>{' '}
      <button
        type="button"
        className="wbv-button"
        disabled={props.busy || !drawnGeometry(drawing.mode, drawing.points)}
        onClick={props.onSave}
      >
        {t('sb_save')}
      </button>{' '}
      <button type="button" className="wbv-button" onClick={props.onCancel}>
        {t('sb_cancel')}
      </button>
    </section>
  );
}

/** A clicked feature: its attributes, and for a frame edited in the map, delete and redraw. */
export function FeatureBox(props: {
  selection: Selection;
  t: ViewerT;
  busy: boolean;
  onClose(): void;
  onDelete(): void;
  onRedraw(mode: DrawMode): void;
}): ReactElement {
  const { selection, t } = props;
  const entries = Object.entries(selection.feature.properties ?? {});
  const mode = geometryMode(selection.feature);
  return (
    <MapBox label={t('selection')} focusKey={selection} onClose={props.onClose}>
      <BoxHeader
        title={t('sb_feature', {
          name: selection.frame.name || selection.frame.type_name,
          index: Number(selection.feature.id) + 1,
        })}
        t={t}
        onClose={props.onClose}
      />
      <div className="wbv-sel-fields">
        {entries.length ? (
          entries.map(([key, value]) => (
            <p key={key} className="wbv-sel-row">
              <span className="wbv-sel-label">{key}</span>{' '}
              <span>{value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)}</span>
            </p>
          ))
        ) : (
          <p>{t('sb_no_attributes')}</p>
        )}
      </div>
      {selection.frame.edit && (
        <p>
          {mode && (
            <button type="button" className="wbv-button" disabled={props.busy} onClick={() => props.onRedraw(mode)}>
              {t('sb_redraw')}
            </button>
          )}{' '}
          <button type="button" className="wbv-button" disabled={props.busy} onClick={props.onDelete}>
            {t('sb_delete')}
          </button>
        </p>
      )}
    </MapBox>
  );
}
