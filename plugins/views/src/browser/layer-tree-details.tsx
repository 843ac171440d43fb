import { Button, FormGroup, HTMLSelect, InputGroup, NumericInput, Switch } from '@werkbank/sdk/ui';
import { ObjectSearchPicker, useT, type PickedObject } from '@werkbank/sdk/browser';
import { GROUP_DISPLAYS, type ViewLayer, type ViewLayerGroup } from '../common/view-tree';

/** Add Layer (spec 002 §5): the layers found by a search (200 ms after the last key), Add and Cancel. */
export function AddLayer({ onAdd, onCancel }: { onAdd(layer: PickedObject): void; onCancel(): void }) {
  const t = useT('views');
  return (
    <ObjectSearchPicker
      path="/api/v1/layer/"
      inputId="view-layer-search"
      label={String(t('tree.search_layers'))}
      emptyText={String(t('tree.no_layers_found'))}
      describe={(h) => `${h.name} (${String(h.type)})`}
      testId="view-add-layer"
      onAdd={onAdd}
      onCancel={onCancel}
    />
  );
}

/** The detail editor of a layer entry, beside the table, with Back. */
export function LayerDetail({
  layer,
  readOnly,
  onChange,
  onBack,
}: {
  layer: ViewLayer;
  readOnly: boolean;
  onChange(p: Partial<ViewLayer>): void;
  onBack(): void;
}) {
  const t = useT('views');
  const flag = (key: keyof ViewLayer, label: string) => (
    <Switch
      key={key}
      label={label}
      disabled={readOnly}
      checked={Boolean(layer[key])}
      onChange={(e) => onChange({ [key]: e.currentTarget.checked })}
    />
  );
  const day = (v: string | null) => (v ? v.slice(0, 10) : '');
  const time = (v: string) => (v ? new Date(`${v}T00:00:00Z`).toISOString() : null);
  return (
    <div className="wb-view-detail" data-testid="view-layer-detail">
      <Button icon="arrow-left" text={t('tree.back')} onClick={onBack} />
      <FormGroup label={t('tree.layer_name')} labelFor="view-layer-name" helperText={t('tree.layer_name_help')}>
        <InputGroup id="view-layer-name" disabled={readOnly} value={layer.name} onValueChange={(name) => onChange({ name })} />
      </FormGroup>
      <FormGroup label={t('tree.opacity')} labelFor="view-layer-opacity">
        <NumericInput
          id="view-layer-opacity"
          disabled={readOnly}
          min={0}
          max={1}
          stepSize={0.1}
          minorStepSize={0.01}
          value={layer.opacity}
          onValueChange={(v) => Number.isFinite(v) && onChange({ opacity: Math.min(1, Math.max(0, v)) })}
        />
      </FormGroup>
      {flag('opacity_editable', String(t('tree.opacity_editable')))}
      {flag('layer_description_visible', String(t('tree.description_visible')))}
      {flag('layer_revision_modified_visible', String(t('tree.revision_visible')))}
      {flag('layer_zoom_to_extent_visible', String(t('tree.zoom_visible')))}
      <FormGroup label={t('tree.time_min')} labelFor="view-layer-time-min">
        <InputGroup
          id="view-layer-time-min"
          type="date"
          disabled={readOnly}
          value={day(layer.time_min)}
          onValueChange={(v) => onChange({ time_min: time(v) })}
        />
      </FormGroup>
      <FormGroup label={t('tree.time_max')} labelFor="view-layer-time-max">
        <InputGroup
          id="view-layer-time-max"
          type="date"
          disabled={readOnly}
          value={day(layer.time_max)}
          onValueChange={(v) => onChange({ time_max: time(v) })}
        />
      </FormGroup>
    </div>
  );
}

/** The detail editor of a group, beside the table, with Back. */
export function GroupDetail({
  group,
  readOnly,
  onChange,
  onBack,
}: {
  group: ViewLayerGroup;
  readOnly: boolean;
  onChange(p: Partial<ViewLayerGroup>): void;
  onBack(): void;
}) {
  const t = useT('views');
  return (
    <div className="wb-view-detail" data-testid="view-group-detail">
      <Button icon="arrow-left" text={t('tree.back')} onClick={onBack} />
      <FormGroup label={t('tree.group_name')} labelFor="view-group-name">
        <InputGroup id="view-group-name" disabled={readOnly} value={group.name} onValueChange={(name) => onChange({ name })} />
      </FormGroup>
      <Switch
        label={String(t('tree.visible'))}
        disabled={readOnly}
        checked={group.visible}
        onChange={(e) => onChange({ visible: e.currentTarget.checked })}
      />
      <Switch
        label={String(t('tree.init_visible'))}
        disabled={readOnly}
        checked={group.init_visible}
        onChange={(e) => onChange({ init_visible: e.currentTarget.checked })}
      />
      <Switch
        label={String(t('tree.init_expanded'))}
        disabled={readOnly}
        checked={group.init_expanded}
        onChange={(e) => onChange({ init_expanded: e.currentTarget.checked })}
      />
      <FormGroup label={t('tree.group_display')} labelFor="view-group-display">
        <HTMLSelect
          id="view-group-display"
          disabled={readOnly}
          value={group.group_display}
          options={GROUP_DISPLAYS.map((d) => ({ value: d, label: String(t(`tree.display_${d}`)) }))}
          onChange={(e) => onChange({ group_display: e.currentTarget.value as ViewLayerGroup['group_display'] })}
        />
      </FormGroup>
    </div>
  );
}
