import assert from 'node:assert/strict';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { XMLParser } from 'fast-xml-parser';
import { fromGeoStyler, SldImportError, styleFromSld, styleToSld, toGeoStyler } from './style-geostyler';
import { filterToMapLibre, scaleToMapLibreZoom, styleToMapLibre } from './style-maplibre';
import type { LayerStyle, StyleFilter } from './style-model';

/** A style whose every value SLD carries (circles, marks, dashes, opacities, labels with halo, filters, scales). */
const STYLE: LayerStyle = {
  rules: [
    {
      name: 'Schools',
      filter: {
        op: 'and',
        filters: [
          { op: '==', attribute: 'kind', value: 'school' },
          { op: '>', attribute: 'pop', value: 1000 },
        ],
      },
      min_scale_denominator: 1000,
      max_scale_denominator: 50000,
      symbol: {
        symbol_type: 'style',
        fill: '#ff0000',
        fill_opacity: 0.5,
        stroke: '#000000',
        stroke_opacity: 0.7,
        stroke_width: 2,
        stroke_dasharray: [5, 10],
        circle_radius: 6,
        text_label: 'name',
        text_size: 14,
        text_fill: '#111111',
        text_halo_fill: '#ffffff',
        text_halo_radius: 2,
      },
    },
    {
      name: 'Others',
      filter: {
        op: 'not',
        filter: {
          op: 'or',
          filters: [
            { op: '==', attribute: 'kind', value: 'school' },
            { op: '<=', attribute: 'pop', value: 10 },
          ],
        },
      },
      symbol: {
        symbol_type: 'graphic',
        graphic: 'square',
        circle_radius: 8,
        fill: '#00ff00',
        fill_opacity: 1,
        stroke: '#0000ff',
        stroke_opacity: 1,
        stroke_width: 1,
      },
    },
    {
      name: 'Icons',
      max_scale_denominator: 10000,
      symbol: {
        symbol_type: 'graphic',
        graphic_url: 'https://example.org/school.png',
        graphic_scale: 0.75,
        graphic_opacity: 0.5,
      },
    },
  ],
};

describe('style conversions: geostyler and SLD', () => {
  it('round-trips through geostyler', () => {
    assert.deepEqual(
      fromGeoStyler(toGeoStyler(STYLE, 'Schulen', ['point'])).rules.map((r) => r.filter),
      STYLE.rules.map((r) => r.filter),
    );
  });

  for (const version of ['1.0.0', '1.1.0'] as const)
    it(`round-trips through SLD ${version}`, async () => {
      const sld = await styleToSld(STYLE, 'Schulen', ['polygon', 'line', 'point'], version);
      const back = await styleFromSld(sld);
      // The point symbol of the third rule keeps its fill/stroke from the polygon symbolizer.
      const expected = structuredClone(STYLE);
      Object.assign(expected.rules[2].symbol, {
        fill: '#2d72d2',
        fill_opacity: 1,
        stroke: '#184a90',
        stroke_opacity: 1,
        stroke_width: 1,
      });
      assert.deepEqual(back, expected);
    });

  it('writes SLD that an independent XML reader finds the rules, filters and symbolizers in', async () => {
    const sld = await styleToSld(STYLE, 'Schulen', ['point'], '1.1.0');
    const doc = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, isArray: (n) => n === 'Rule' }).parse(sld);
    assert.equal(doc.StyledLayerDescriptor['@_version'], '1.1.0');
    const rules = doc.StyledLayerDescriptor.NamedLayer.UserStyle.FeatureTypeStyle.Rule;
    assert.deepEqual(
      rules.map((r: { Name: string }) => r.Name),
      ['Schools', 'Others', 'Icons'],
    );
    assert.equal(rules[0].MinScaleDenominator, 1000);
    assert.equal(rules[0].MaxScaleDenominator, 50000);
    assert.ok(rules[0].Filter.And.PropertyIsEqualTo);
    assert.equal(rules[0].PointSymbolizer.Graphic.Mark.WellKnownName, 'circle');
    assert.equal(rules[0].TextSymbolizer.Label.PropertyName, 'name');
    assert.equal(rules[1].PointSymbolizer.Graphic.Mark.WellKnownName, 'square');
    assert.equal(rules[2].PointSymbolizer.Graphic.ExternalGraphic.OnlineResource['@_href'], 'https://example.org/school.png');
  });

  it('writes only the symbolizers of the geometry kinds the layer holds', async () => {
    const lines = await styleToSld(STYLE, 'x', ['line']);
    assert.match(lines, /LineSymbolizer/);
    assert.doesNotMatch(lines, /PolygonSymbolizer|PointSymbolizer/);
  });

  it('refuses DOCTYPEs and entities (no external entity is read)', async () => {
    const evil = `<?xml version="1.0"?><!DOCTYPE sld [<!ENTITY x SYSTEM "file:///etc/passwd">]><StyledLayerDescriptor version="1.0.0"><NamedLayer><UserStyle><FeatureTypeStyle><Rule><Name>&x;</Name></Rule></FeatureTypeStyle></UserStyle></NamedLayer></StyledLayerDescriptor>`;
    await assert.rejects(styleFromSld(evil), (e: SldImportError) => e.key === 'layers:errors.sld_doctype');
  });

  for (const [name, text] of [
    ['not XML', 'hello'],
    ['XML without rules', '<StyledLayerDescriptor version="1.0.0"></StyledLayerDescriptor>'],
  ])
    it(`refuses ${name}`, async () => {
      await assert.rejects(
        styleFromSld(text),
        (e: SldImportError) => e instanceof SldImportError && e.key === 'layers:errors.sld_invalid',
      );
    });
});

describe('style conversions: MapLibre', () => {
  const cases: Array<[StyleFilter, unknown]> = [
    [{ op: '==', attribute: 'a', value: 'x' }, ['==', ['get', 'a'], 'x']],
    [{ op: '>', attribute: 'a', value: 3 }, ['>', ['to-number', ['get', 'a'], 0], 3]],
    [{ op: '<', attribute: 'a', value: 'm' }, ['<', ['to-string', ['get', 'a']], 'm']],
    [{ op: '==', attribute: 'a', value: null }, ['!', ['has', 'a']]],
    [{ op: 'not', filter: { op: '!=', attribute: 'a', value: true } }, ['!', ['!=', ['get', 'a'], true]]],
    [
      {
        op: 'or',
        filters: [
          { op: '==', attribute: 'a', value: 1 },
          { op: 'and', filters: [{ op: '==', attribute: 'b', value: 2 }] },
        ],
      },
      ['any', ['==', ['get', 'a'], 1], ['all', ['==', ['get', 'b'], 2]]],
    ],
  ];
  for (const [filter, expr] of cases)
    it(`filter ${JSON.stringify(filter)}`, () => assert.deepEqual(filterToMapLibre(filter), expr));

  it('writes a style document that MapLibre’s own validator accepts', () => {
    const doc = styleToMapLibre(STYLE, { name: 'Schulen', source: 'schulen', data: 'https://example.org/layer.geojson' });
    assert.deepEqual(validateStyleMin(doc as never), []);
    const ids = doc.layers.map((l) => l.id);
    assert.ok(
      ids.includes('rule-1-polygon-fill') && ids.includes('rule-1-polygon-outline') && ids.includes('rule-1-point-circle'),
    );
    assert.ok(ids.includes('rule-1-point-label') && ids.includes('rule-2-point-icon') && ids.includes('rule-3-point-icon'));
    const circle = doc.layers.find((l) => l.id === 'rule-1-point-circle')!;
    assert.equal(circle.minzoom, scaleToMapLibreZoom(50000));
    assert.equal(circle.maxzoom, scaleToMapLibreZoom(1000));
    assert.deepEqual((circle.paint as Record<string, unknown>)['circle-color'], '#ff0000');
  });

  it('converts scales to MapLibre zooms', () => {
    assert.equal(scaleToMapLibreZoom(MAPLIBRE_Z0), 0);
    assert.equal(scaleToMapLibreZoom(MAPLIBRE_Z0 / 1024), 10);
  });
});

const MAPLIBRE_Z0 = 279541132.014;
