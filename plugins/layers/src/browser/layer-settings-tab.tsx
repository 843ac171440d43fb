import { Button, ButtonGroup, Callout, FormGroup, HTMLSelect, InputGroup, Switch, TextArea } from '@werkbank/sdk/ui';
import { ConfigStore, ObjectTags, useService, useT } from '@werkbank/sdk/browser';
import { hasZoomSettings, LAYER_TYPES, ZOOM_KEYS, ZOOM_MAX, ZOOM_MIN } from '../common/layer-types';
import { isValidSlug } from '../common/layer-slug';
import { lastYears } from '../common/time-quick-picks';
import type { Layer } from '../common/layers-api';
import { LegendField } from './legend-field';

const ZOOM_LEVELS = Array.from({ length: ZOOM_MAX - ZOOM_MIN + 1 }, (_, i) => ZOOM_MIN + i);

/** Date part (yyyy-mm-dd) of a stored time, for a date input. */
const dayOf = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

/**
 * The Settings tab of the layer editor (spec 001 §2.2, §5.1): name, short name with its rule,
 * type (from the configured layer type names), public switch, the legend upload with the PNG guidance (LegendField),
 * descriptions, zoom settings (only for types with zoom settings; "not set" removes the key) and
 * the time range with the last-10-years quick picks. Tags only when the tags component is on
 * (spec 001 §2.2); they are stored at once.
 */
export function LayerSettingsTab({
  layer,
  readOnly,
  onChange,
  onTagsChanged,
  onLegendChanged,
}: {
  layer: Layer;
  readOnly: boolean;
  onChange(patch: Partial<Layer>): void;
  /** After a tag was added or removed (tags are stored at once, not with Save). */
  onTagsChanged?(): void;
  /** After the legend was uploaded or removed (stored at once, decision 0063), with its address or ''. */
  onLegendChanged?(legend: string): void;
}) {
  const t = useT('layers');
  const config = useService(ConfigStore);
  const typeNames = config.config.layer_types ?? {};
  const slugBad = layer.slug !== '' && !isValidSlug(layer.slug);
  const setZoom = (key: string, raw: string) => {
    const attr = { ...layer.attr };
    if (raw === '') delete attr[key];
    else attr[key] = Number.parseInt(raw, 10);
    onChange({ attr });
  };
  return (
    <div data-testid="layer-settings">
      <FormGroup label={t('settings.name')} labelFor="layer-name">
        <InputGroup id="layer-name" disabled={readOnly} value={layer.name} onValueChange={(name) => onChange({ name })} />
      </FormGroup>
      <FormGroup
        label={t('settings.slug')}
        labelFor="layer-slug"
        helperText={slugBad ? t('errors.slug') : t('settings.slug_help')}
        intent={slugBad ? 'danger' : 'none'}
      >
        <InputGroup
          id="layer-slug"
          disabled={readOnly}
          intent={slugBad ? 'danger' : 'none'}
          value={layer.slug}
          onValueChange={(slug) => onChange({ slug })}
        />
      </FormGroup>
      <FormGroup label={t('settings.type')} labelFor="layer-type">
        <HTMLSelect
          id="layer-type"
          fill
          disabled={readOnly}
          value={layer.type}
          onChange={(e) => onChange({ type: e.target.value as Layer['type'] })}
        >
          {LAYER_TYPES.map((type) => (
            <option key={type} value={type}>
              {typeNames[type] ?? type}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {config.isEnabled('tags') && (
        <FormGroup label={t('settings.tags')}>
          <ObjectTags address={layer.resource_uri} tags={layer.tags} readOnly={readOnly} onChange={() => onTagsChanged?.()} />
        </FormGroup>
      )}
      <FormGroup label={t('settings.public')}>
        <Switch
          id="layer-public"
          disabled={readOnly}
          checked={layer.public}
          label={String(t(layer.public ? 'settings.public_on' : 'settings.public_off'))}
          onChange={(e) => onChange({ public: (e.target as HTMLInputElement).checked })}
        />
      </FormGroup>
      <LegendField layer={layer} readOnly={readOnly} onChanged={(legend) => onLegendChanged?.(legend)} />
      <FormGroup label={t('settings.description_title')} labelFor="layer-description-title">
        <InputGroup
          id="layer-description-title"
          disabled={readOnly}
          value={layer.description_title}
          onValueChange={(description_title) => onChange({ description_title })}
        />
      </FormGroup>
      <FormGroup label={t('settings.description')} labelFor="layer-description">
        <TextArea
          id="layer-description"
          fill
          disabled={readOnly}
          value={layer.description}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </FormGroup>
      <FormGroup label={t('settings.zoom')}>
        {hasZoomSettings(layer.type) ? (
          <div className="wb-form-row">
            {ZOOM_KEYS.map((key) => (
              <FormGroup key={key} label={t(`settings.${key}`)} labelFor={`layer-${key}`} inline>
                <HTMLSelect
                  id={`layer-${key}`}
                  disabled={readOnly}
                  value={layer.attr[key] === undefined ? '' : String(layer.attr[key])}
                  onChange={(e) => setZoom(key, e.target.value)}
                >
                  <option value="">{t('settings.zoom_unset')}</option>
                  {ZOOM_LEVELS.map((z) => (
                    <option key={z} value={z}>
                      {z}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
            ))}
          </div>
        ) : (
          <Callout>{t('settings.no_zoom')}</Callout>
        )}
      </FormGroup>
      <FormGroup label={t('settings.time')}>
        <div className="wb-form-row">
          <label htmlFor="layer-time-min">{t('settings.time_min')}</label>
          <input
            id="layer-time-min"
            type="date"
            className="bp6-input"
            disabled={readOnly}
            value={dayOf(layer.time_min)}
            onChange={(e) => onChange({ time_min: e.target.value ? `${e.target.value}T00:00:00.000Z` : null })}
          />
          <label htmlFor="layer-time-max">{t('settings.time_max')}</label>
          <input
            id="layer-time-max"
            type="date"
            className="bp6-input"
            disabled={readOnly}
            value={dayOf(layer.time_max)}
            onChange={(e) => onChange({ time_max: e.target.value ? `${e.target.value}T23:59:59.000Z` : null })}
          />
        </div>
        <ButtonGroup className="wb-quick-picks">
          {lastYears(new Date()).map((y) => (
            <Button
              key={y.year}
              size="small"
              disabled={readOnly}
              text={String(y.year)}
              onClick={() => onChange({ time_min: y.time_min, time_max: y.time_max })}
            />
          ))}
          <Button
            size="small"
            icon="cross"
            disabled={readOnly}
            text={t('settings.time_clear')}
            onClick={() => onChange({ time_min: null, time_max: null })}
          />
        </ButtonGroup>
      </FormGroup>
    </div>
  );
}
