import { Button, Callout, Checkbox, FormGroup, HTMLSelect, HTMLTable, InputGroup } from '@werkbank/sdk/ui';
import { useT, type DatumEditorProps } from '@werkbank/sdk/browser';
import { LAYER_TYPES, hasZoomSettings, ZOOM_KEYS, ZOOM_MAX, ZOOM_MIN } from '../common/layer-types';
import { newLayerTemplateFields, SELECTION_SCOPES, type LayerTemplate } from '../common/layer-template';
import { newSelectionField, SELECTION_FIELD_TYPES } from '../common/selection-fields';
import type { SelectionField } from '../common/layers-api';

const ZOOM_LEVELS = Array.from({ length: ZOOM_MAX - ZOOM_MIN + 1 }, (_, i) => ZOOM_MIN + i);
const dayOf = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10) : '');

/** The datum's fields over a new template's, so a half-filled datum still edits. */
function fieldsOf(value: unknown): LayerTemplate {
  const v = value && typeof value === 'object' && !Array.isArray(value) ? (value as Partial<LayerTemplate>) : {};
  const base = newLayerTemplateFields();
  return {
    ...base,
    ...v,
    attr: v.attr && typeof v.attr === 'object' ? v.attr : {},
    selection_fields: Array.isArray(v.selection_fields) ? v.selection_fields : [],
    scope: v.scope && typeof v.scope === 'object' ? { ...base.scope, ...v.scope } : base.scope,
  };
}

/**
 * The layer template editor (spec 001 §2.1 "layer template editor", §3.1 Layer template; decision
 * 0064): layer type, zoom settings, time range, the selection fields and which of them a layer made
 * from the template gets (scope.selection_fields). Receives and hands back all fields of the datum.
 */
export function LayerTemplateEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const t = useT('layers');
  const tpl = fieldsOf(value);
  const set = (patch: Partial<LayerTemplate>) => onChange({ ...tpl, ...patch });
  const setZoom = (key: string, raw: string) => {
    const attr = { ...tpl.attr };
    if (raw === '') delete attr[key];
    else attr[key] = Number.parseInt(raw, 10);
    set({ attr });
  };
  const fields = tpl.selection_fields;
  const setField = (i: number, p: Partial<SelectionField>) =>
    set({ selection_fields: fields.map((f, j) => (j === i ? { ...f, ...p } : f)) });
  return (
    <div data-testid="datum-editor-layertemplate">
      <FormGroup label={t('settings.type')} labelFor="layertemplate-type">
        <HTMLSelect
          id="layertemplate-type"
          disabled={readOnly}
          value={tpl.layer_type}
          onChange={(e) => {
            const layer_type = e.target.value as LayerTemplate['layer_type'];
            // Zoom keys belong only to types with zoom settings.
            set({ layer_type, attr: hasZoomSettings(layer_type) ? tpl.attr : {} });
          }}
        >
          {LAYER_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      {hasZoomSettings(tpl.layer_type) && (
        <FormGroup label={t('settings.zoom')}>
          <div className="wb-form-row">
            {ZOOM_KEYS.map((key) => (
              <FormGroup key={key} label={t(`settings.${key}`)} labelFor={`layertemplate-${key}`} inline>
                <HTMLSelect
                  id={`layertemplate-${key}`}
                  disabled={readOnly}
                  value={typeof tpl.attr[key] === 'number' ? String(tpl.attr[key]) : ''}
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
        </FormGroup>
      )}
      <FormGroup label={t('settings.time')}>
        <div className="wb-form-row">
          <label htmlFor="layertemplate-time-min">{t('settings.time_min')}</label>
          <input
            id="layertemplate-time-min"
            type="date"
            className="bp6-input"
            disabled={readOnly}
            value={dayOf(tpl.time_min)}
            onChange={(e) => set({ time_min: e.target.value ? `${e.target.value}T00:00:00.000Z` : null })}
          />
          <label htmlFor="layertemplate-time-max">{t('settings.time_max')}</label>
          <input
            id="layertemplate-time-max"
            type="date"
            className="bp6-input"
            disabled={readOnly}
            value={dayOf(tpl.time_max)}
            onChange={(e) => set({ time_max: e.target.value ? `${e.target.value}T23:59:59.000Z` : null })}
          />
        </div>
      </FormGroup>
      <FormGroup label={t('templates.scope')} labelFor="layertemplate-scope" helperText={t('templates.scope_help')}>
        <HTMLSelect
          id="layertemplate-scope"
          disabled={readOnly}
          value={tpl.scope.selection_fields}
          onChange={(e) => set({ scope: { selection_fields: e.target.value as LayerTemplate['scope']['selection_fields'] } })}
        >
          {SELECTION_SCOPES.map((s) => (
            <option key={s} value={s}>
              {t(`templates.scopes.${s}`)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <h4 className="bp6-heading">{t('selection.fields')}</h4>
      {!fields.length && <Callout>{t('selection.empty')}</Callout>}
      {!!fields.length && (
        <HTMLTable compact striped className="wb-fill">
          <thead>
            <tr>
              <th>{t('selection.key')}</th>
              <th>{t('selection.display_name')}</th>
              <th>{t('selection.type')}</th>
              <th>{t('selection.unit')}</th>
              <th>{t('selection.visible')}</th>
              <th>
                <span className="bp6-text-muted">{t('selection.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f, i) => (
              <tr key={i} data-testid="layertemplate-field">
                <td>
                  <InputGroup
                    aria-label={String(t('selection.key_n', { n: i + 1 }))}
                    disabled={readOnly}
                    value={f.key}
                    onValueChange={(key) => setField(i, { key })}
                  />
                </td>
                <td>
                  <InputGroup
                    aria-label={String(t('selection.display_name_n', { n: i + 1 }))}
                    disabled={readOnly}
                    value={f.displayName}
                    onValueChange={(displayName) => setField(i, { displayName })}
                  />
                </td>
                <td>
                  <HTMLSelect
                    aria-label={String(t('selection.type_n', { n: i + 1 }))}
                    disabled={readOnly}
                    value={f.type}
                    onChange={(e) => setField(i, { type: e.target.value })}
                  >
                    {SELECTION_FIELD_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(`selection.types.${type}`)}
                      </option>
                    ))}
                  </HTMLSelect>
                </td>
                <td>
                  <InputGroup
                    aria-label={String(t('selection.unit_n', { n: i + 1 }))}
                    disabled={readOnly}
                    value={f.unit ?? ''}
                    onValueChange={(unit) => setField(i, { unit: unit || null })}
                  />
                </td>
                <td>
                  <Checkbox
                    aria-label={String(t('selection.visible_n', { n: i + 1 }))}
                    disabled={readOnly}
                    checked={f.visible !== false}
                    onChange={(e) => setField(i, { visible: (e.target as HTMLInputElement).checked })}
                  />
                </td>
                <td>
                  <Button
                    size="small"
                    variant="minimal"
                    icon="trash"
                    disabled={readOnly}
                    aria-label={String(t('selection.remove_n', { n: i + 1 }))}
                    onClick={() => set({ selection_fields: fields.filter((_, j) => j !== i) })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {!readOnly && (
        <Button
          icon="add"
          data-testid="layertemplate-add-field"
          text={t('selection.add')}
          onClick={() => set({ selection_fields: [...fields, newSelectionField()] })}
        />
      )}
    </div>
  );
}
