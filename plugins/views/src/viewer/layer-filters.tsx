/**
 * A layer's attribute filters in the viewer (decision 0091): allowed values as checkboxes, a number
 * range, a period. Every change redraws the layer from its map service with the filters applied.
 */
import type { ReactElement } from '@werkbank/sdk/globe';
import type { AttributeFilter } from '@werkbank/plugin-layers/api';
import type { SceneLayer } from '../common/view-scene';
import { offeredFilters, setFilter, type LayerState } from './viewer-state';
import type { ViewerT } from './viewer-i18n';

const day = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 10) : '');
const number = (v: string) => (v.trim() === '' || !Number.isFinite(Number(v)) ? null : Number(v));

function FilterField(props: {
  offered: AttributeFilter;
  current: AttributeFilter;
  id: string;
  label: string;
  t: ViewerT;
  onChange(f: AttributeFilter): void;
}): ReactElement {
  const { offered, current, id, label, t } = props;
  const args = current.filter.filter_arguments ?? {};
  const set = (changes: Record<string, unknown>) =>
    props.onChange({ ...current, filter: { ...current.filter, filter_arguments: { ...args, ...changes } } });
  if (offered.filter.filter_type === 'allowed-values') {
    const all = (offered.filter.filter_arguments?.allowed_values as unknown[] | undefined) ?? [];
    const chosen = ((args.allowed_values as unknown[] | undefined) ?? []).map(String);
    return (
      <fieldset className="wbv-filter">
        <legend>{label}</legend>
        {all.map((value, i) => (
          <label key={i} className="wbv-filter-value">
            <input
              type="checkbox"
              checked={chosen.includes(String(value))}
              onChange={(e) =>
                set({
                  allowed_values: e.target.checked
                    ? all.filter((v) => chosen.includes(String(v)) || v === value)
                    : all.filter((v) => chosen.includes(String(v)) && v !== value),
                })
              }
            />{' '}
            {String(value)}
          </label>
        ))}
      </fieldset>
    );
  }
  const numeric = offered.filter.filter_type === 'min-max-value';
  const [minKey, maxKey] = numeric ? ['min_value', 'max_value'] : ['time_min', 'time_max'];
  const bound = (key: string, text: string) => (
    <label className="wbv-filter-bound" htmlFor={`${id}-${key}`}>
      {text}{' '}
      <input
        id={`${id}-${key}`}
        type={numeric ? 'number' : 'date'}
        value={numeric ? String(args[key] ?? '') : day(args[key])}
        onChange={(e) => set({ [key]: numeric ? number(e.target.value) : e.target.value ? `${e.target.value}T00:00:00Z` : null })}
      />
    </label>
  );
  return (
    <fieldset className="wbv-filter">
      <legend>{label}</legend>
      {bound(minKey, t('filter_from'))} {bound(maxKey, t('filter_to'))}
    </fieldset>
  );
}

/** The filters a layer offers, with a button that shows the layer as it is again. */
export function LayerFilters(props: {
  layer: SceneLayer;
  state: LayerState;
  onState(s: LayerState): void;
  tr(text: string): string;
  t: ViewerT;
}): ReactElement | null {
  const { layer, state, t } = props;
  const offered = offeredFilters(layer);
  if (!offered.length) return null;
  const current = state.filters?.[layer.id] ?? offered;
  const id = `wbv-filter-${layer.id}`;
  return (
    <div className="wbv-filters" id={id}>
      {offered.map((f, i) => (
        <FilterField
          key={`${f.attribute_key}-${i}`}
          offered={f}
          current={current[i] ?? f}
          id={`${id}-${i}`}
          label={props.tr(f.display_name || f.attribute_key)}
          t={t}
          onChange={(next) => props.onState(setFilter(state, layer, i, next))}
        />
      ))}
      {state.filters?.[layer.id] && (
        <button
          type="button"
          className="wbv-button"
          onClick={() => props.onState(offered.reduce((s, _, i) => setFilter(s, layer, i, undefined), state))}
        >
          {t('filter_reset')}
        </button>
      )}
    </div>
  );
}
