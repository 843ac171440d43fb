import assert from 'node:assert/strict';
import { checkStyle } from './style-validation';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };

describe('style: validation', () => {
  const ok = { symbol_type: 'style' };
  const cases: Array<[string, unknown, string | undefined, string?]> = [
    ['null is the default style', null, undefined],
    ['a plain style', { rules: [{ symbol: ok }] }, undefined],
    ['not an object', 'red', 'style_object', 'style'],
    ['rules missing', {}, 'style_object', 'style'],
    ['rule not an object', { rules: [3] }, 'style_rule', 'style.rules[0]'],
    [
      'unknown symbol type',
      { rules: [{ symbol: { symbol_type: 'sparkle' } }] },
      'style_symbol_type',
      'style.rules[0].symbol.symbol_type',
    ],
    ['bad colour', { rules: [{ symbol: { ...ok, fill: 'reddish' } }] }, 'style_colour', 'style.rules[0].symbol.fill'],
    [
      'opacity over 1',
      { rules: [{ symbol: { ...ok, fill_opacity: 1.5 } }] },
      'style_number',
      'style.rules[0].symbol.fill_opacity',
    ],
    [
      'label size not integer',
      { rules: [{ symbol: { ...ok, text_size: 10.5 } }] },
      'style_integer',
      'style.rules[0].symbol.text_size',
    ],
    [
      'halo radius not integer',
      { rules: [{ symbol: { ...ok, text_halo_radius: 1.5 } }] },
      'style_integer',
      'style.rules[0].symbol.text_halo_radius',
    ],
    [
      'bad dash',
      { rules: [{ symbol: { ...ok, stroke_dasharray: 'dots' } }] },
      'style_dash',
      'style.rules[0].symbol.stroke_dasharray',
    ],
    [
      'contour outside hover',
      { rules: [{ symbol: { ...ok, contour_type: 'bbox' } }] },
      'style_contour_hover',
      'style.rules[0].symbol.contour_type',
    ],
    ['contour on hover', { rules: [{ symbol: ok, hover_symbol: { ...ok, contour_type: 'bbox' } }] }, undefined],
    [
      'unknown billboard',
      { rules: [{ symbol: { symbol_type: 'billboard', graphic: 'unicorn' } }] },
      'style_billboard',
      'style.rules[0].symbol.graphic',
    ],
    [
      'unknown mark',
      { rules: [{ symbol: { symbol_type: 'graphic', graphic: 'blob' } }] },
      'style_mark',
      'style.rules[0].symbol.graphic',
    ],
    [
      'script address',
      { rules: [{ symbol: { symbol_type: 'graphic', graphic_url: 'javascript:alert(1)' } }] },
      'style_graphic_url',
      'style.rules[0].symbol.graphic_url',
    ],
    [
      'scale not integer',
      { rules: [{ symbol: ok, max_scale_denominator: 10.5 }] },
      'style_scale',
      'style.rules[0].max_scale_denominator',
    ],
    [
      'scale order',
      { rules: [{ symbol: ok, min_scale_denominator: 5000, max_scale_denominator: 1000 }] },
      'style_scale_order',
      'style.rules[0].min_scale_denominator',
    ],
    [
      'filter op',
      { rules: [{ symbol: ok, filter: { op: 'like', attribute: 'a', value: 'x' } }] },
      'style_filter_op',
      'style.rules[0].filter.op',
    ],
    [
      'filter attribute',
      { rules: [{ symbol: ok, filter: { op: '==', attribute: '', value: 'x' } }] },
      'style_filter_attribute',
      'style.rules[0].filter.attribute',
    ],
    [
      'filter value',
      { rules: [{ symbol: ok, filter: { op: '==', attribute: 'a', value: { x: 1 } } }] },
      'style_filter_value',
      'style.rules[0].filter.value',
    ],
    [
      'empty and',
      { rules: [{ symbol: ok, filter: { op: 'and', filters: [] } }] },
      'style_filter_list',
      'style.rules[0].filter.filters',
    ],
    [
      'nested bad comparison',
      {
        rules: [
          { symbol: ok },
          { symbol: ok, filter: { op: 'or', filters: [{ op: 'not', filter: { op: '<', attribute: 'a' } }] } },
        ],
      },
      'style_filter_value',
      'style.rules[1].filter.filters[0].filter.value',
    ],
    ['too many rules', { rules: Array.from({ length: 101 }, () => ({ symbol: ok })) }, 'style_rules_max', 'style.rules'],
  ];
  for (const [name, style, key, field] of cases)
    it(name, () => {
      const p = checkStyle(style);
      assert.equal(p?.key, key ? `layers:errors.${key}` : undefined);
      if (field) assert.equal(p?.field, field);
    });

  it('every style error has a German and an English text', () => {
    for (const [, , key] of cases) {
      if (!key) continue;
      const e = (en as { errors: Record<string, string> }).errors[key];
      const d = (de as { errors: Record<string, string> }).errors[key];
      assert.ok(e && d && e !== d, key);
    }
  });
});
