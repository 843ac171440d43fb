import { Button, Callout, Checkbox, FormGroup, HTMLSelect, NumericInput } from '@werkbank/sdk/ui';
import { ApiClient, useService, useT } from '@werkbank/sdk/browser';
import { useEffect, useState } from '@werkbank/sdk/react';
import { START_MODES_PATH } from '../common/views-api';
import type { CameraPosition, ViewConfig } from '../common/view-tree';

const FIELDS: Array<{ key: keyof CameraPosition; min: number; max: number }> = [
  { key: 'lon', min: -180, max: 180 },
  { key: 'lat', min: -90, max: 90 },
  { key: 'height', min: -12000, max: 1e8 },
  { key: 'heading', min: -360, max: 360 },
  { key: 'pitch', min: -90, max: 90 },
  { key: 'roll', min: -360, max: 360 },
];

/**
 * The Home view tab (spec 002 §2): the start mode ('Automatic', the empty option; plug-ins may add
 * more) and 'Explicit start position' — ticked, it shows the camera form and the view keeps the
 * position; unticked, the view sends none. The camera can be taken from the live preview.
 */
export function ViewHomeTab(props: {
  home: CameraPosition | null;
  config: ViewConfig;
  readOnly: boolean;
  previewCamera: CameraPosition | null;
  onHome(home: CameraPosition | null): void;
  onConfig(config: ViewConfig): void;
}) {
  const t = useT('views');
  const api = useService(ApiClient);
  const { home, readOnly } = props;
  // The start modes plug-ins offer (decision 0093), labelled in the user's language.
  const [modes, setModes] = useState<Array<{ name: string; label: string }>>([]);
  useEffect(() => {
    api.get<Array<{ name: string; label: string }>>(START_MODES_PATH).then(setModes, () => setModes([]));
  }, [api]);
  const current = props.config.viewer.start_state;
  const options = [
    { value: '', label: String(t('home.automatic')) },
    ...modes.map((m) => ({ value: m.name, label: m.label })),
    // A mode whose plug-in is gone stays visible until the author picks another (the viewer starts as 'Automatic').
    ...(current && !modes.some((m) => m.name === current)
      ? [{ value: current, label: String(t('home.unknown_mode', { name: current })) }]
      : []),
  ];
  return (
    <div data-testid="view-home">
      <FormGroup label={t('home.mode')} labelFor="view-start-mode">
        <HTMLSelect
          id="view-start-mode"
          disabled={readOnly}
          value={props.config.viewer.start_state}
          options={options}
          onChange={(e) =>
            props.onConfig({ ...props.config, viewer: { ...props.config.viewer, start_state: e.currentTarget.value } })
          }
        />
      </FormGroup>
      <Checkbox
        label={String(t('home.explicit'))}
        disabled={readOnly}
        checked={!!home}
        data-testid="view-home-explicit"
        onChange={(e) =>
          props.onHome(
            e.currentTarget.checked
              ? (props.previewCamera ?? { lon: 10.45, lat: 51.16, height: 1_500_000, heading: 0, pitch: -90, roll: 0 })
              : null,
          )
        }
      />
      {home && (
        <div className="wb-view-camera">
          {FIELDS.map((f) => (
            <FormGroup key={f.key} label={t(`home.${f.key}`)} labelFor={`view-home-${f.key}`}>
              <NumericInput
                id={`view-home-${f.key}`}
                disabled={readOnly}
                min={f.min}
                max={f.max}
                value={home[f.key]}
                onValueChange={(v) => Number.isFinite(v) && props.onHome({ ...home, [f.key]: v })}
              />
            </FormGroup>
          ))}
          {!readOnly && (
            <Button
              icon="camera"
              text={t('home.from_preview')}
              disabled={!props.previewCamera}
              data-testid="view-home-from-preview"
              onClick={() => props.previewCamera && props.onHome(props.previewCamera)}
            />
          )}
          {!props.previewCamera && <Callout>{t('home.no_preview_camera')}</Callout>}
        </div>
      )}
    </div>
  );
}
