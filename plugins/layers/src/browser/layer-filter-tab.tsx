import { useState } from '@werkbank/sdk/react';
import { Button, Callout, Card, Checkbox, FormGroup, HTMLSelect, InputGroup, Tag } from '@werkbank/sdk/ui';
import { ApiClient, useService, useT } from '@werkbank/sdk/browser';
import { allowedValueOf, FILTER_TYPES, newAttributeFilter, withFilterType, type FilterType } from '../common/selection-fields';
import { LAYER_ATTRIBUTE_VALUES_PATH, type AttributeFilter, type Layer, type LayerAttribute } from '../common/layers-api';

type Value = string | number | boolean;
const dayOf = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : '');
const numberOrNull = (raw: string) => (raw.trim() === '' || !Number.isFinite(Number(raw)) ? null : Number(raw));

/** One filter's allowed values: the assigned ones, a free entry, and the suggestions from the layer's data. */
function AllowedValues({
  layerId,
  index,
  filter,
  readOnly,
  onChange,
}: {
  layerId: number;
  index: number;
  filter: AttributeFilter;
  readOnly: boolean;
  onChange(values: Value[]): void;
}) {
  const t = useT('layers');
  const api = useService(ApiClient);
  const [entry, setEntry] = useState('');
  const [suggestions, setSuggestions] = useState<Value[]>();
  const [error, setError] = useState<string>();
  const values = (filter.filter.filter_arguments.allowed_values as Value[] | undefined) ?? [];
  const has = (v: Value) => values.some((x) => x === v);
  const add = (v: Value) => !has(v) && onChange([...values, v]);
  const suggest = async () => {
    setError(undefined);
    try {
      const query = { layer: layerId, attribute: filter.attribute_key, unique: 'true' };
      const r = await api.get<{ objects: unknown[] }>(LAYER_ATTRIBUTE_VALUES_PATH, { query });
      setSuggestions(r.objects.filter((v) => v !== null && v !== undefined).map(allowedValueOf));
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div data-testid="filter-allowed-values">
      <div role="list" aria-label={String(t('filter.allowed_values'))} className="wb-form-row">
        {values.length === 0 && <span className="wb-muted">{t('filter.no_values')}</span>}
        {values.map((v) => (
          <span role="listitem" key={JSON.stringify(v)}>
            <Tag data-testid="filter-value">{String(v)}</Tag>
            {!readOnly && (
              <Button
                size="small"
                variant="minimal"
                icon="small-cross"
                aria-label={String(t('filter.remove_value', { value: String(v) }))}
                onClick={() => onChange(values.filter((x) => x !== v))}
              />
            )}
          </span>
        ))}
      </div>
      {!readOnly && (
        <div className="wb-form-row">
          <InputGroup
            aria-label={String(t('filter.new_value_n', { n: index + 1 }))}
            placeholder={String(t('filter.new_value'))}
            value={entry}
            onValueChange={setEntry}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && entry.trim()) {
                add(entry.trim());
                setEntry('');
              }
            }}
          />
          <Button
            icon="add"
            text={t('filter.add_value')}
            disabled={!entry.trim()}
            onClick={() => {
              add(entry.trim());
              setEntry('');
            }}
          />
          <Button
            icon="lightbulb"
            text={t('filter.suggest')}
            data-testid="filter-suggest"
            disabled={!filter.attribute_key}
            onClick={() => void suggest()}
          />
        </div>
      )}
      {error && <Callout intent="danger">{error}</Callout>}
      {suggestions && (
        <div data-testid="filter-suggestions">
          <p className="wb-muted">{t('filter.suggestions')}</p>
          {suggestions.length === 0 && <p>{t('filter.no_suggestions')}</p>}
          <div className="wb-form-row" role="group" aria-label={String(t('filter.suggestions'))}>
            {suggestions.map((v) => (
              <Button
                key={JSON.stringify(v)}
                size="small"
                icon={has(v) ? 'tick' : 'plus'}
                disabled={has(v)}
                data-testid="filter-suggestion"
                text={String(v)}
                aria-label={String(t('filter.add_suggestion', { value: String(v) }))}
                onClick={() => add(v)}
              />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * The Filter tab (spec 001 §2.2, §3.1): attribute filters of three types. A new filter is
 * allowed-values on the first attribute; changing the type resets its arguments; allowed values
 * are suggested from the layer's data (`layer-attribute-values?unique=true`).
 */
export function LayerFilterTab({
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
  const filters = layer.attribute_filters;
  const set = (attribute_filters: AttributeFilter[]) => onChange({ attribute_filters });
  const update = (i: number, f: AttributeFilter) => set(filters.map((x, j) => (j === i ? f : x)));
  const args = (i: number, p: Record<string, unknown>) =>
    update(i, {
      ...filters[i],
      filter: { ...filters[i].filter, filter_arguments: { ...filters[i].filter.filter_arguments, ...p } },
    });
  const names = attributes.map((a) => a.name);
  return (
    <div data-testid="layer-filter">
      <p className="wb-muted">{t('filter.intro')}</p>
      {!filters.length && <Callout>{t('filter.empty')}</Callout>}
      {filters.map((f, i) => {
        const id = `layer-filter-${i}`;
        const a = f.filter.filter_arguments;
        return (
          <Card key={i} className="wb-filter" data-testid="attribute-filter">
            <div className="wb-form-row">
              <FormGroup label={t('filter.attribute')} labelFor={`${id}-attribute`}>
                <HTMLSelect
                  id={`${id}-attribute`}
                  disabled={readOnly}
                  value={f.attribute_key}
                  onChange={(e) => update(i, { ...f, attribute_key: e.target.value })}
                >
                  {!names.includes(f.attribute_key) && <option value={f.attribute_key}>{f.attribute_key || '—'}</option>}
                  {names.map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
              <FormGroup label={t('filter.display_name')} labelFor={`${id}-name`}>
                <InputGroup
                  id={`${id}-name`}
                  disabled={readOnly}
                  value={f.display_name ?? ''}
                  onValueChange={(display_name) => update(i, { ...f, display_name })}
                />
              </FormGroup>
              <FormGroup label={t('filter.type')} labelFor={`${id}-type`}>
                <HTMLSelect
                  id={`${id}-type`}
                  disabled={readOnly}
                  value={f.filter.filter_type}
                  onChange={(e) => update(i, withFilterType(f, e.target.value as FilterType))}
                >
                  {FILTER_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`filter.types.${type}`)}
                    </option>
                  ))}
                </HTMLSelect>
              </FormGroup>
              <Checkbox
                label={String(t('filter.visible'))}
                disabled={readOnly}
                checked={f.visible !== false}
                onChange={(e) => update(i, { ...f, visible: (e.target as HTMLInputElement).checked })}
              />
              {!readOnly && (
                <Button
                  icon="trash"
                  variant="minimal"
                  aria-label={String(t('filter.remove_n', { n: i + 1 }))}
                  onClick={() => set(filters.filter((_, j) => j !== i))}
                />
              )}
            </div>
            {f.filter.filter_type === 'allowed-values' && (
              <AllowedValues
                layerId={layer.id}
                index={i}
                filter={f}
                readOnly={readOnly}
                onChange={(allowed_values) => args(i, { allowed_values })}
              />
            )}
            {f.filter.filter_type === 'min-max-value' && (
              <div className="wb-form-row">
                <FormGroup label={t('filter.min_value')} labelFor={`${id}-min`}>
                  <InputGroup
                    id={`${id}-min`}
                    type="number"
                    disabled={readOnly}
                    value={a.min_value === null || a.min_value === undefined ? '' : String(a.min_value)}
                    onValueChange={(raw) => args(i, { min_value: numberOrNull(raw) })}
                  />
                </FormGroup>
                <FormGroup label={t('filter.max_value')} labelFor={`${id}-max`}>
                  <InputGroup
                    id={`${id}-max`}
                    type="number"
                    disabled={readOnly}
                    value={a.max_value === null || a.max_value === undefined ? '' : String(a.max_value)}
                    onValueChange={(raw) => args(i, { max_value: numberOrNull(raw) })}
                  />
                </FormGroup>
              </div>
            )}
            {f.filter.filter_type === 'temporal-bounds' && (
              <div className="wb-form-row">
                <label htmlFor={`${id}-tmin`}>{t('filter.time_min')}</label>
                <input
                  id={`${id}-tmin`}
                  type="date"
                  className="bp6-input"
                  disabled={readOnly}
                  value={dayOf(a.time_min)}
                  onChange={(e) => args(i, { time_min: e.target.value ? `${e.target.value}T00:00:00.000Z` : null })}
                />
                <label htmlFor={`${id}-tmax`}>{t('filter.time_max')}</label>
                <input
                  id={`${id}-tmax`}
                  type="date"
                  className="bp6-input"
                  disabled={readOnly}
                  value={dayOf(a.time_max)}
                  onChange={(e) => args(i, { time_max: e.target.value ? `${e.target.value}T23:59:59.000Z` : null })}
                />
              </div>
            )}
          </Card>
        );
      })}
      {!readOnly && (
        <Button
          icon="add"
          text={t('filter.add')}
          data-testid="filter-add"
          onClick={() => set([...filters, newAttributeFilter(attributes)])}
        />
      )}
    </div>
  );
}
