import { useState } from '@werkbank/sdk/react';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, NumericInput } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, formatBytes, useService, useT } from '@werkbank/sdk/browser';
import {
  checkTileSettings,
  resolveTileSettings,
  TILE_STRATEGIES,
  TILE_ZOOM_MAX,
  TILE_ZOOM_MIN,
  type TileSettings,
} from '../common/tile-settings';
import { tileBuildPath, type Layer, type TileArchive } from '../common/layers-api';

const ZOOMS = Array.from({ length: TILE_ZOOM_MAX - TILE_ZOOM_MIN + 1 }, (_, i) => TILE_ZOOM_MIN + i);
const SWITCHES = ['guess_max_zoom', 'no_clipping', 'no_duplication'] as const;

/**
 * The Tiles tab of pmtiles layers (decision 0062): the tile generation settings of spec 001 §3.3
 * (checked as the server checks them, stored only where they differ from the defaults), the last
 * built archive, and "Build tile archive", which builds from the saved layer.
 */
export function LayerTilesTab({
  layer,
  saved,
  readOnly,
  onChange,
  onBuilt,
}: {
  layer: Layer;
  /** The layer as stored: the build uses it, not unsaved changes. */
  saved: Layer;
  readOnly: boolean;
  onChange(patch: Partial<Layer>): void;
  onBuilt(archive: TileArchive): void;
}) {
  const t = useT('layers');
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const [building, setBuilding] = useState(false);
  const [result, setResult] = useState<{ intent: 'success' | 'danger'; text: string }>();
  const settings = resolveTileSettings(layer.tile_settings);
  const { problem } = checkTileSettings(layer.tile_settings);
  const set = (patch: Partial<TileSettings>) => {
    const next = { ...settings, ...patch };
    const { settings: stored } = checkTileSettings(next);
    // An invalid combination stays in the draft as typed, so its reason shows until it is fixed.
    onChange({ tile_settings: stored === undefined ? next : stored });
  };
  const strategy = TILE_STRATEGIES.find((s) => settings[s]) ?? '';
  const size = (n: number) => formatBytes(n, i18n.language);
  const archive = saved.tile_archive;
  const unsaved = JSON.stringify(layer.tile_settings ?? null) !== JSON.stringify(saved.tile_settings ?? null);
  const build = async () => {
    setBuilding(true);
    setResult(undefined);
    try {
      const reply = await api.post<{ tile_archive: TileArchive }>(tileBuildPath(saved.id), {});
      const a = reply.tile_archive;
      onBuilt(a);
      setResult({ intent: 'success', text: String(t('tiles.built', { ...a, size: size(a.size) })) });
    } catch (e) {
      setResult({ intent: 'danger', text: (e as Error).message });
    } finally {
      setBuilding(false);
    }
  };
  const zoomSelect = (key: 'min_zoom' | 'max_zoom', disabled = false) => (
    <FormGroup label={t(`tiles.${key}`)} labelFor={`tiles-${key}`} inline>
      <HTMLSelect
        id={`tiles-${key}`}
        disabled={readOnly || disabled}
        value={String(settings[key])}
        onChange={(e) => set({ [key]: Number.parseInt(e.target.value, 10) })}
      >
        {ZOOMS.map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
  return (
    <div data-testid="layer-tiles">
      <p className="wb-muted">{t('tiles.intro')}</p>
      <div className="wb-form-row">
        {zoomSelect('min_zoom')}
        {zoomSelect('max_zoom', settings.guess_max_zoom)}
      </div>
      {(['max_tile_features', 'max_tile_bytes'] as const).map((key) => (
        <FormGroup key={key} label={t(`tiles.${key}`)} labelFor={`tiles-${key}`}>
          <NumericInput
            id={`tiles-${key}`}
            // Blueprint points the stepper buttons' aria-controls at its own id, not at `id` (an
            // invalid ARIA reference axe refuses); the arrow keys still step the value.
            buttonPosition="none"
            disabled={readOnly}
            min={1}
            stepSize={key === 'max_tile_bytes' ? 1024 : 1000}
            minorStepSize={1}
            majorStepSize={key === 'max_tile_bytes' ? 102_400 : 10_000}
            value={settings[key]}
            onValueChange={(n) => Number.isFinite(n) && set({ [key]: Math.round(n) })}
          />
        </FormGroup>
      ))}
      <FormGroup label={t('tiles.strategy')} labelFor="tiles-strategy">
        <HTMLSelect
          id="tiles-strategy"
          disabled={readOnly}
          value={strategy}
          onChange={(e) =>
            set(Object.fromEntries(TILE_STRATEGIES.map((s) => [s, s === e.target.value])) as Partial<TileSettings>)
          }
        >
          <option value="">{t('tiles.strategy_none')}</option>
          {TILE_STRATEGIES.map((s) => (
            <option key={s} value={s}>
              {t(`tiles.${s}`)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {SWITCHES.map((key) => (
        <Checkbox
          key={key}
          id={`tiles-${key}`}
          disabled={readOnly}
          checked={settings[key]}
          label={String(t(`tiles.${key}`))}
          onChange={(e) => set({ [key]: (e.target as HTMLInputElement).checked })}
        />
      ))}
      {problem && (
        <Callout intent="danger" data-testid="tiles-problem">
          {t(problem.key, problem.params ?? {})}
        </Callout>
      )}
      <div className="wb-toolbar">
        <Button
          icon="build"
          intent="primary"
          data-testid="tiles-build"
          text={building ? t('tiles.building') : t('tiles.build')}
          loading={building}
          disabled={readOnly || !saved.id}
          onClick={() => void build()}
        />
        {archive && (
          <a href={archive.url} download data-testid="tiles-download">
            {t('tiles.download')}
          </a>
        )}
      </div>
      {unsaved && <Callout>{t('tiles.unsaved')}</Callout>}
      {result && (
        <Callout intent={result.intent} data-testid="tiles-result" role="status">
          {result.text}
        </Callout>
      )}
      <p data-testid="tiles-archive">
        {archive
          ? t('tiles.archive', {
              ...archive,
              size: size(archive.size),
              built: new Date(archive.built).toLocaleString(i18n.language),
            })
          : t('tiles.none')}
      </p>
      {archive?.guessed_max_zoom && <p>{t('tiles.guessed', { max_zoom: archive.max_zoom })}</p>}
      {archive && archive.dropped + archive.coalesced > 0 && (
        <p>{t('tiles.reduced', { dropped: archive.dropped, coalesced: archive.coalesced })}</p>
      )}
    </div>
  );
}
