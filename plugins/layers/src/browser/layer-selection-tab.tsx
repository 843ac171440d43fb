import { useRef } from '@werkbank/sdk/react';
import { Button, Callout, Checkbox, FormGroup, HTMLSelect, HTMLTable, Icon, InputGroup, TextArea } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { moved } from '../common/pile-order';
import { addAllAttributes, newSelectionField, SELECTION_FIELD_TYPES } from '../common/selection-fields';
import type { Layer, LayerAttribute, SelectionField } from '../common/layers-api';

/**
 * The Selection window tab (spec 001 §2.2, §3.1, §5.1): what a click on a feature shows — title,
 * contact, image and the selection fields with their 15 types. 'Add all attributes' appends the
 * layer's attributes title-cased; rows reorder by drag, or by keyboard with the move buttons or
 * Alt+Arrow keys on a row's handle.
 */
export function LayerSelectionTab({
  layer,
  attributes,
  readOnly,
  onChange,
}: {
  layer: Layer;
  attributes: LayerAttribute[];
  readOnly: boolean;
  onChange(patch: Partial<Layer>): void;
}) {
  const t = useT('layers');
  const dragged = useRef<number | undefined>(undefined);
  const fields = layer.selection_fields;
  const setFields = (selection_fields: SelectionField[]) => onChange({ selection_fields });
  const update = (i: number, p: Partial<SelectionField>) => setFields(fields.map((f, j) => (j === i ? { ...f, ...p } : f)));
  const move = (from: number, to: number) => {
    setFields(moved(fields, from, to));
    // Keep the keyboard where the row went.
    requestAnimationFrame(() => document.getElementById(`selection-field-handle-${to}`)?.focus());
  };
  return (
    <div data-testid="layer-selection">
      <FormGroup label={t('selection.title')} labelFor="layer-selection-title">
        <InputGroup
          id="layer-selection-title"
          disabled={readOnly}
          value={layer.selection_title}
          onValueChange={(selection_title) => onChange({ selection_title })}
        />
      </FormGroup>
      <FormGroup label={t('selection.contact')} labelFor="layer-selection-contact">
        <TextArea
          id="layer-selection-contact"
          fill
          disabled={readOnly}
          value={layer.selection_contact}
          onChange={(e) => onChange({ selection_contact: e.target.value })}
        />
      </FormGroup>
      <FormGroup label={t('selection.image')} labelFor="layer-selection-image" helperText={t('selection.image_help')}>
        <InputGroup
          id="layer-selection-image"
          disabled={readOnly}
          value={layer.selection_image}
          onValueChange={(selection_image) => onChange({ selection_image })}
        />
      </FormGroup>
      <h3 className="bp6-heading">{t('selection.fields')}</h3>
      <p className="wb-muted">{t('selection.fields_intro')}</p>
      {!fields.length && <Callout>{t('selection.empty')}</Callout>}
      {!!fields.length && (
        <HTMLTable compact striped className="wb-fill">
          <thead>
            <tr>
              <th>
                <span className="bp6-text-muted">{t('selection.order')}</span>
              </th>
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
              <tr
                key={i}
                data-testid="selection-field"
                draggable={!readOnly}
                onDragStart={() => (dragged.current = i)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={() => {
                  if (dragged.current !== undefined) setFields(moved(fields, dragged.current, i));
                  dragged.current = undefined;
                }}
              >
                <td>
                  {readOnly ? (
                    i + 1
                  ) : (
                    <span className="wb-form-row">
                      <Button
                        id={`selection-field-handle-${i}`}
                        size="small"
                        variant="minimal"
                        icon={<Icon icon="drag-handle-vertical" />}
                        aria-label={String(t('selection.move_handle', { n: i + 1 }))}
                        title={String(t('selection.move_help'))}
                        onKeyDown={(e) => {
                          if (!e.altKey) return;
                          if (e.key === 'ArrowUp' && i > 0) {
                            e.preventDefault();
                            move(i, i - 1);
                          } else if (e.key === 'ArrowDown' && i < fields.length - 1) {
                            e.preventDefault();
                            move(i, i + 1);
                          }
                        }}
                      />
                      <Button
                        size="small"
                        variant="minimal"
                        icon="arrow-up"
                        disabled={i === 0}
                        aria-label={String(t('selection.move_up'))}
                        onClick={() => move(i, i - 1)}
                      />
                      <Button
                        size="small"
                        variant="minimal"
                        icon="arrow-down"
                        disabled={i === fields.length - 1}
                        aria-label={String(t('selection.move_down'))}
                        onClick={() => move(i, i + 1)}
                      />
                    </span>
                  )}
                </td>
                <td>
                  <InputGroup
                    aria-label={String(t('selection.key_n', { n: i + 1 }))}
                    disabled={readOnly}
                    value={f.key}
                    list="layer-attribute-names"
                    data-testid="selection-field-key"
                    onValueChange={(key) => update(i, { key })}
                  />
                </td>
                <td>
                  <InputGroup
                    aria-label={String(t('selection.display_name_n', { n: i + 1 }))}
                    disabled={readOnly}
                    value={f.displayName}
                    data-testid="selection-field-name"
                    onValueChange={(displayName) => update(i, { displayName })}
                  />
                </td>
                <td>
                  <HTMLSelect
                    aria-label={String(t('selection.type_n', { n: i + 1 }))}
                    disabled={readOnly}
                    value={f.type}
                    data-testid="selection-field-type"
                    onChange={(e) => update(i, { type: e.target.value })}
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
                    onValueChange={(unit) => update(i, { unit: unit === '' ? null : unit })}
                  />
                </td>
                <td>
                  <Checkbox
                    aria-label={String(t('selection.visible_n', { n: i + 1 }))}
                    disabled={readOnly}
                    checked={f.visible !== false}
                    onChange={(e) => update(i, { visible: (e.target as HTMLInputElement).checked })}
                  />
                </td>
                <td>
                  {!readOnly && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="cross"
                      aria-label={String(t('selection.remove_n', { n: i + 1 }))}
                      onClick={() => setFields(fields.filter((_, j) => j !== i))}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <datalist id="layer-attribute-names">
        {attributes.map((a) => (
          <option key={a.name} value={a.name} />
        ))}
      </datalist>
      {!readOnly && (
        <div className="wb-form-row">
          <Button
            icon="add"
            text={t('selection.add')}
            data-testid="selection-add"
            onClick={() => setFields([...fields, newSelectionField()])}
          />
          <Button
            icon="add-row-bottom"
            text={t('selection.add_all')}
            data-testid="selection-add-all"
            disabled={!attributes.length}
            onClick={() => setFields(addAllAttributes(fields, attributes))}
          />
        </div>
      )}
    </div>
  );
}
