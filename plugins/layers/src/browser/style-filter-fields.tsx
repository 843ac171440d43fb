import { Button, Callout, FormGroup, HTMLSelect, InputGroup } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import type { LayerAttribute } from '../common/layers-api';
import { COMPARISON_OPS, type ComparisonOp, type FilterValue, type StyleFilter, type StyleRule } from '../common/style-model';

const OP_KEYS: Record<ComparisonOp, string> = {
  '==': 'op_eq',
  '!=': 'op_ne',
  '<': 'op_lt',
  '<=': 'op_le',
  '>': 'op_gt',
  '>=': 'op_ge',
};

type Comparison = Extract<StyleFilter, { attribute: string }>;
type Match = 'all' | 'any' | 'none';

/** A filter as the form edits it: a list of comparisons joined by all/any/none; otherwise null (nested, kept as is). */
export function flatFilter(f: StyleFilter | null | undefined): { match: Match; items: Comparison[] } | null {
  const isComparison = (x: StyleFilter): x is Comparison => 'attribute' in x;
  if (!f) return { match: 'all', items: [] };
  if (isComparison(f)) return { match: 'all', items: [f] };
  if ((f.op === 'and' || f.op === 'or') && f.filters.every(isComparison))
    return { match: f.op === 'and' ? 'all' : 'any', items: f.filters };
  if (f.op === 'not') {
    if (isComparison(f.filter)) return { match: 'none', items: [f.filter] };
    if (f.filter.op === 'or' && f.filter.filters.every(isComparison)) return { match: 'none', items: f.filter.filters };
  }
  return null;
}

export function joinFilter(match: Match, items: Comparison[]): StyleFilter | null {
  if (!items.length) return null;
  if (match === 'none') return { op: 'not', filter: items.length === 1 ? items[0] : { op: 'or', filters: items } };
  if (items.length === 1) return items[0];
  return { op: match === 'all' ? 'and' : 'or', filters: items };
}

/** A typed value for a comparison: numbers for number attributes, true/false for booleans, else text. */
function typedValue(text: string, type: string | undefined): FilterValue {
  if ((type === 'number' || type === 'integer') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The Filter tab: conditions on attributes joined by all / any / none (spec 001 §3.7). */
export function FilterFields({
  rule,
  attributes,
  disabled,
  onChange,
}: {
  rule: StyleRule;
  attributes: LayerAttribute[];
  disabled: boolean;
  onChange(filter: StyleFilter | null): void;
}) {
  const t = useT('layers');
  const flat = flatFilter(rule.filter);
  if (!flat)
    return (
      <div>
        <Callout>{t('style.filter_nested')}</Callout>
        <Button icon="trash" text={t('style.filter_clear')} disabled={disabled} onClick={() => onChange(null)} />
      </div>
    );
  const { match, items } = flat;
  const setItem = (i: number, p: Partial<Comparison>) =>
    onChange(
      joinFilter(
        match,
        items.map((c, j) => (j === i ? { ...c, ...p } : c)),
      ),
    );
  const typeOf = (name: string) => attributes.find((a) => a.name === name)?.type;
  return (
    <div data-testid="style-filter">
      {!items.length && <p className="wb-muted">{t('style.filter_none')}</p>}
      {items.length > 1 || match === 'none' ? (
        <FormGroup label={t('style.filter_match')} labelFor="style-filter-match" inline>
          <HTMLSelect
            id="style-filter-match"
            disabled={disabled}
            value={match}
            onChange={(e) => onChange(joinFilter(e.target.value as Match, items))}
          >
            <option value="all">{t('style.filter_all')}</option>
            <option value="any">{t('style.filter_any')}</option>
            <option value="none">{t('style.filter_none_of')}</option>
          </HTMLSelect>
        </FormGroup>
      ) : null}
      {items.map((c, i) => (
        <div
          key={i}
          className="wb-style-condition"
          data-testid="style-condition"
          role="group"
          aria-label={`${t('style.tab_filter')} ${i + 1}`}
        >
          <FormGroup label={t('style.filter_attribute')} labelFor={`style-cond-attr-${i}`} inline>
            <HTMLSelect
              id={`style-cond-attr-${i}`}
              disabled={disabled}
              value={c.attribute}
              onChange={(e) =>
                setItem(i, { attribute: e.target.value, value: typedValue(String(c.value ?? ''), typeOf(e.target.value)) })
              }
            >
              {!attributes.some((a) => a.name === c.attribute) && <option value={c.attribute}>{c.attribute}</option>}
              {attributes.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('style.filter_op')} labelFor={`style-cond-op-${i}`} inline>
            <HTMLSelect
              id={`style-cond-op-${i}`}
              disabled={disabled}
              value={c.op}
              onChange={(e) => setItem(i, { op: e.target.value as ComparisonOp })}
            >
              {COMPARISON_OPS.map((op) => (
                <option key={op} value={op}>
                  {t(`style.${OP_KEYS[op]}`)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('style.filter_value')} labelFor={`style-cond-value-${i}`} inline>
            <InputGroup
              id={`style-cond-value-${i}`}
              disabled={disabled}
              value={c.value === null ? '' : String(c.value)}
              onValueChange={(v) => setItem(i, { value: typedValue(v, typeOf(c.attribute)) })}
            />
          </FormGroup>
          <Button
            icon="trash"
            aria-label={String(t('style.filter_remove'))}
            disabled={disabled}
            onClick={() =>
              onChange(
                joinFilter(
                  match,
                  items.filter((_, j) => j !== i),
                ),
              )
            }
          />
        </div>
      ))}
      <Button
        icon="add"
        text={t('style.filter_add')}
        data-testid="style-filter-add"
        disabled={disabled}
        onClick={() => onChange(joinFilter(match, [...items, { op: '==', attribute: attributes[0]?.name ?? '', value: '' }]))}
      />
    </div>
  );
}
