import assert from 'node:assert/strict';
import { acceptsFeature, attributeFilterParam, parseAttributeFilterParam } from './attribute-filter-match';
import type { AttributeFilter } from './layers-api';

const values = (key: string, allowed: unknown[]): AttributeFilter => ({
  attribute_key: key,
  filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: allowed } },
});
const range = (key: string, min: number | null, max: number | null): AttributeFilter => ({
  attribute_key: key,
  filter: { filter_type: 'min-max-value', filter_arguments: { min_value: min, max_value: max } },
});
const period = (key: string, from: string | null, to: string | null): AttributeFilter => ({
  attribute_key: key,
  filter: { filter_type: 'temporal-bounds', filter_arguments: { time_min: from, time_max: to } },
});

describe('attribute filters applied to features (decision 0091)', () => {
  it('accepts allowed values (compared as text), numbers in a range, and times in bounds; open bounds are open', () => {
    assert.equal(acceptsFeature({ art: 'Wald' }, [values('art', ['Wald', 'Wiese'])]), true);
    assert.equal(acceptsFeature({ art: 'Acker' }, [values('art', ['Wald'])]), false);
    assert.equal(acceptsFeature({ nr: 3 }, [values('nr', ['3'])]), true);
    assert.equal(acceptsFeature({ nr: 5 }, [range('nr', 1, 5)]), true);
    assert.equal(acceptsFeature({ nr: '6' }, [range('nr', 1, 5)]), false);
    assert.equal(acceptsFeature({ nr: 600 }, [range('nr', 1, null)]), true);
    assert.equal(acceptsFeature({ d: '2020-06-01' }, [period('d', '2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z')]), true);
    assert.equal(acceptsFeature({ d: '2021-06-01' }, [period('d', '2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z')]), false);
    assert.equal(acceptsFeature({ d: '1999-06-01' }, [period('d', null, '2020-12-31T00:00:00Z')]), true);
  });

  it('turns a feature without the attribute (or with an unreadable value) away, and needs every filter to pass', () => {
    assert.equal(acceptsFeature({}, [values('art', ['Wald'])]), false);
    assert.equal(acceptsFeature(null, [range('nr', 1, 2)]), false);
    assert.equal(acceptsFeature({ nr: 'x' }, [range('nr', null, null)]), false);
    assert.equal(acceptsFeature({ d: 'gestern' }, [period('d', null, null)]), false);
    assert.equal(acceptsFeature({ art: 'Wald', nr: 9 }, [values('art', ['Wald']), range('nr', 1, 5)]), false);
    assert.equal(acceptsFeature({ art: 'Wald' }, []), true);
  });

  it('reads the parameter back only for filters the layer offers, with the same type', () => {
    const declared = [values('art', ['Wald', 'Wiese']), range('nr', 1, 24)];
    const sent = [values('art', ['Wald']), range('nr', 2, 3)];
    assert.deepEqual(parseAttributeFilterParam(attributeFilterParam(sent), declared), { filters: sent });
    assert.deepEqual(parseAttributeFilterParam('', declared), { filters: [] });
    assert.equal(attributeFilterParam([]), '');
    for (const raw of [
      JSON.stringify([values('name', ['P1'])]),
      JSON.stringify([range('art', 1, 2)]),
      JSON.stringify([{ attribute_key: 'nr', filter: { filter_type: 'min-max-value', filter_arguments: { min_value: 'a' } } }]),
      JSON.stringify({ attribute_key: 'art' }),
      '[',
    ])
      assert.ok('problem' in parseAttributeFilterParam(raw, declared), raw);
  });
});
