import assert from 'node:assert/strict';
import {
  addRule,
  dashArray,
  dashPatternId,
  DASH_PATTERNS,
  evaluateStyle,
  inScale,
  matchesFilter,
  moveRule,
  normalColour,
  parseInteger,
  parseNumber,
  removeRule,
  scaleToZoom,
  symbolizersOf,
  UnknownSymbolTypeError,
  withHalo,
  type LayerStyle,
  type StyleFilter,
  type StyleRule,
} from './style-model';

const point = { type: 'Point', coordinates: [7, 50] };
const line = {
  type: 'LineString',
  coordinates: [
    [7, 50],
    [8, 51],
  ],
};
const polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [7, 50],
      [8, 50],
      [8, 51],
      [7, 50],
    ],
  ],
};
const props = { kind: 'school', pop: 1200, name: 'Nord', open: true, code: '007' };

describe('style: filters', () => {
  const cases: Array<[string, StyleFilter | null, boolean]> = [
    ['no filter passes', null, true],
    ['equal text', { op: '==', attribute: 'kind', value: 'school' }, true],
    ['unequal text', { op: '==', attribute: 'kind', value: 'park' }, false],
    ['not equal', { op: '!=', attribute: 'kind', value: 'park' }, true],
    ['number greater', { op: '>', attribute: 'pop', value: 1000 }, true],
    ['number as text compares as number', { op: '<', attribute: 'pop', value: '900' }, false],
    ['text-number in data compares as number', { op: '==', attribute: 'code', value: 7 }, true],
    ['at most, equal', { op: '<=', attribute: 'pop', value: 1200 }, true],
    ['at least', { op: '>=', attribute: 'pop', value: 1201 }, false],
    ['boolean equal', { op: '==', attribute: 'open', value: true }, true],
    ['boolean has no order', { op: '>', attribute: 'open', value: false }, false],
    ['missing attribute is not equal', { op: '==', attribute: 'nope', value: 'x' }, false],
    ['missing attribute differs', { op: '!=', attribute: 'nope', value: 'x' }, true],
    ['missing attribute has no order', { op: '<', attribute: 'nope', value: 5 }, false],
    ['equal null: missing', { op: '==', attribute: 'nope', value: null }, true],
    ['not null: present', { op: '!=', attribute: 'kind', value: null }, true],
    ['text order', { op: '<', attribute: 'name', value: 'Süd' }, true],
    [
      'and',
      {
        op: 'and',
        filters: [
          { op: '==', attribute: 'kind', value: 'school' },
          { op: '>', attribute: 'pop', value: 2000 },
        ],
      },
      false,
    ],
    [
      'or',
      {
        op: 'or',
        filters: [
          { op: '==', attribute: 'kind', value: 'park' },
          { op: '>', attribute: 'pop', value: 1000 },
        ],
      },
      true,
    ],
    ['not', { op: 'not', filter: { op: '==', attribute: 'kind', value: 'school' } }, false],
    [
      'nested',
      {
        op: 'and',
        filters: [
          { op: 'not', filter: { op: '==', attribute: 'kind', value: 'park' } },
          {
            op: 'or',
            filters: [
              { op: '==', attribute: 'name', value: 'Nord' },
              { op: '==', attribute: 'name', value: 'Süd' },
            ],
          },
        ],
      },
      true,
    ],
  ];
  for (const [name, filter, expected] of cases) it(name, () => assert.equal(matchesFilter(filter, props), expected));
});

describe('style: scale ranges', () => {
  const cases: Array<[Partial<StyleRule>, number, boolean]> = [
    [{}, 1e9, true],
    [{ min_scale_denominator: 1000 }, 999, false],
    [{ min_scale_denominator: 1000 }, 1000, true],
    [{ max_scale_denominator: 50000 }, 49999, true],
    [{ max_scale_denominator: 50000 }, 50000, false],
    [{ min_scale_denominator: 1000, max_scale_denominator: 50000 }, 25000, true],
    [{ min_scale_denominator: null, max_scale_denominator: null }, 5, true],
  ];
  for (const [range, scale, expected] of cases)
    it(`${JSON.stringify(range)} at 1:${scale} → ${expected}`, () =>
      assert.equal(inScale({ symbol: { symbol_type: 'style' }, ...range }, scale), expected));

  it('shows scale as zoom to one decimal (spec 001 §2.8)', () => {
    for (const [d, z] of [
      [1000, 19],
      [25000, 14.3],
      [500000, 10],
      [100000000, 2.4],
    ] as const)
      assert.equal(scaleToZoom(d), z);
  });
});

describe('style: evaluateStyle', () => {
  const style: LayerStyle = {
    rules: [
      {
        name: 'all',
        symbol: {
          symbol_type: 'style',
          fill: '#ff0000',
          fill_opacity: 0.5,
          stroke: '#000000',
          stroke_width: 2,
          circle_radius: 4,
        },
      },
      {
        name: 'schools near',
        filter: { op: '==', attribute: 'kind', value: 'school' },
        max_scale_denominator: 50000,
        symbol: {
          symbol_type: 'graphic',
          graphic: 'star',
          circle_radius: 8,
          fill: '#00ff00',
          text_label: 'name',
          text_size: 14,
          text_fill: '#111111',
          text_halo_fill: '#ffffff',
          text_halo_radius: 2,
        },
        hover_enabled: true,
        hover_symbol: { symbol_type: 'style', fill: '#ffff00', contour_type: 'feature' },
      },
      { name: 'dashed', symbol: { symbol_type: 'style', stroke: '#0000ff', stroke_width: 3, stroke_dasharray: [5, 10] } },
    ],
  };
  const cases: Array<[string, object, number, { hover?: boolean }, Array<[string, number]>]> = [
    [
      'a point far out: all and dashed',
      point,
      100000,
      {},
      [
        ['mark', 0],
        ['mark', 2],
      ],
    ],
    [
      'a point near: all three, with the label',
      point,
      10000,
      {},
      [
        ['mark', 0],
        ['mark', 1],
        ['label', 1],
        ['mark', 2],
      ],
    ],
    [
      'a line',
      line,
      10000,
      {},
      [
        ['line', 0],
        ['line', 1],
        ['label', 1],
        ['line', 2],
      ],
    ],
    [
      'a polygon',
      polygon,
      10000,
      {},
      [
        ['polygon', 0],
        ['polygon', 1],
        ['label', 1],
        ['polygon', 2],
      ],
    ],
    [
      'hover: the hover symbol, without label',
      point,
      10000,
      { hover: true },
      [
        ['mark', 0],
        ['mark', 1],
        ['mark', 2],
      ],
    ],
    ['no geometry: nothing', null as never, 10000, {}, []],
  ];
  for (const [name, geometry, scale, options, expected] of cases)
    it(name, () => {
      const out = evaluateStyle(style, { geometry: geometry as never, properties: props }, scale, options);
      assert.deepEqual(
        out.map((s) => [s.kind, s.rule]),
        expected,
      );
    });

  it('resolves a symbol: colours, opacities, radius, mark, label and halo', () => {
    const [, star, label] = evaluateStyle(style, { geometry: point, properties: props }, 10000);
    assert.deepEqual(star, {
      kind: 'mark',
      rule: 1,
      mark: 'star',
      radius: 8,
      fill: '#00ff00',
      fillOpacity: 1,
      stroke: '#184a90',
      strokeOpacity: 1,
      strokeWidth: 1,
    });
    assert.deepEqual(label, {
      kind: 'label',
      rule: 1,
      field: 'name',
      text: 'Nord',
      size: 14,
      fill: '#111111',
      halo: { fill: '#ffffff', radius: 2 },
      dx: 0,
      dy: 0,
    });
    const [, , , dashed] = evaluateStyle(style, { geometry: line, properties: props }, 10000);
    assert.deepEqual(dashed, { kind: 'line', rule: 2, stroke: '#0000ff', strokeOpacity: 1, strokeWidth: 3, dash: [5, 10] });
  });

  it('a feature without the label attribute gets no label', () => {
    const out = evaluateStyle(style, { geometry: point, properties: { kind: 'school' } }, 10000);
    assert.equal(out.filter((s) => s.kind === 'label').length, 0);
  });

  it('draws icons for billboards and graphic addresses, with scale and opacity', () => {
    const icon = symbolizersOf({ symbol_type: 'billboard', graphic: 'flag', graphic_scale: 0.5, graphic_opacity: 0.8 }, 'point');
    assert.deepEqual(icon, [
      {
        kind: 'icon',
        rule: 0,
        icon: 'flag',
        url: null,
        size: 16,
        opacity: 0.8,
        anchor: [0.5, 0.5],
        offset: [0, 0],
        fill: '#2d72d2',
      },
    ]);
    const url = symbolizersOf({ symbol_type: 'graphic', graphic_url: 'https://example.org/a.png' }, 'point');
    assert.equal((url[0] as { url: string }).url, 'https://example.org/a.png');
  });

  it('raises an error for an unknown symbol type (spec 001 §8)', () => {
    const bad = { rules: [{ symbol: { symbol_type: 'sparkle' } }] } as unknown as LayerStyle;
    assert.throws(() => evaluateStyle(bad, { geometry: point, properties: {} }, 1000), UnknownSymbolTypeError);
  });

  it('an empty or missing style draws the default symbol', () => {
    assert.equal(evaluateStyle(null, { geometry: point }, 1000)[0].kind, 'mark');
    assert.equal(evaluateStyle({ rules: [] }, { geometry: polygon }, 1000)[0].kind, 'polygon');
  });
});

describe('style: editing rules (spec 001 §2.8, §5.3)', () => {
  const base: LayerStyle = { rules: [{ name: 'a', symbol: { symbol_type: 'style', fill: '#123456' } }] };
  it('a new rule copies the base rule symbol', () => {
    const s = addRule(base);
    assert.deepEqual(s.rules[1].symbol, base.rules[0].symbol);
    assert.notEqual(s.rules[1].symbol, base.rules[0].symbol);
  });
  it('the last rule is not removed; after a removal the previous rule opens', () => {
    assert.equal(removeRule(base, 0).style, base);
    const three = addRule(addRule(base));
    assert.deepEqual([removeRule(three, 2).open, removeRule(three, 0).open], [1, 0]);
    assert.equal(removeRule(three, 1).style.rules.length, 2);
  });
  it('moves rules within bounds', () => {
    const two = { rules: [base.rules[0], { name: 'b', symbol: base.rules[0].symbol }] };
    assert.deepEqual(
      moveRule(two, 1, -1).rules.map((r) => r.name),
      ['b', 'a'],
    );
    assert.equal(moveRule(two, 1, 1), two);
  });
  const parse: Array<[string, (t: string) => unknown, string, unknown]> = [
    ['number', parseNumber, '2.5', 2.5],
    ['number, comma', parseNumber, '2,5', 2.5],
    ['number, empty', parseNumber, '', null],
    ['number, junk', parseNumber, 'abc', null],
    ['integer', parseInteger, '25000', 25000],
    ['integer, decimal refused', parseInteger, '2.5', null],
    ['integer, empty', parseInteger, ' ', null],
    ['colour transparent', normalColour as never, 'transparent', '#000000'],
    ['colour kept', normalColour as never, '#abcdef', '#abcdef'],
  ];
  for (const [name, fn, text, expected] of parse) it(`parses ${name}`, () => assert.equal(fn(text), expected));
  it('keeps halo values only with Use border', () => {
    const s = withHalo({ symbol_type: 'style', text_halo_fill: '#ffffff', text_halo_radius: 3 }, false);
    assert.deepEqual(s, { symbol_type: 'style' });
    assert.deepEqual(withHalo({ symbol_type: 'style' }, true), {
      symbol_type: 'style',
      text_halo_fill: '#ffffff',
      text_halo_radius: 1,
    });
  });
  it('knows the 11 dash patterns and reads stored strings', () => {
    assert.equal(DASH_PATTERNS.length, 11);
    assert.deepEqual(dashArray('5 10'), [5, 10]);
    assert.deepEqual(dashArray('15-10-5'), [15, 10, 5]);
    assert.equal(dashArray('none'), null);
    assert.equal(dashPatternId([5, 5, 1, 5]), '5-5-1-5');
    assert.equal(dashPatternId(null), 'none');
  });
});
