import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import type { Layer } from '../src/common/layers-api';
import type { LayerStyle } from '../src/common/style-model';
import { styleFromSld } from '../src/common/style-geostyler';
import { featureDepot, newLayer, layersServer } from './layers-support';

const STYLE: LayerStyle = {
  rules: [
    {
      name: 'Große Schulen',
      filter: {
        op: 'and',
        filters: [
          { op: '==', attribute: 'kind', value: 'school' },
          { op: '>=', attribute: 'pop', value: 500 },
        ],
      },
      max_scale_denominator: 50000,
      symbol: {
        symbol_type: 'style',
        fill: '#ff0000',
        fill_opacity: 0.5,
        stroke: '#000000',
        stroke_width: 2,
        circle_radius: 7,
        text_label: 'name',
        text_size: 12,
      },
    },
    { name: 'Rest', symbol: { symbol_type: 'graphic', graphic: 'triangle', circle_radius: 5, fill: '#00ff00' } },
  ],
};

/** The layer's style field (decision 0061): saved with the layer, checked, exported as SLD and MapLibre JSON. */
describe('layers: the map style', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  layersServer((s) => ({ t, admin } = s));

  it('saves a style with the layer, counting the revision, and refuses a bad one in the user’s language', async () => {
    const layer = await newLayer(admin);
    assert.equal(layer.style, null);
    const saved = expectStatus<Layer>(await admin.patch(layer.resource_uri, { style: STYLE }), 200);
    assert.deepEqual(saved.style, STYLE);
    assert.equal(saved.revision, layer.revision + 1);
    assert.deepEqual(expectStatus<Layer>(await admin.get(layer.resource_uri), 200).style, STYLE);

    const bad = structuredClone(STYLE) as unknown as { rules: Array<{ symbol: Record<string, unknown> }> };
    bad.rules[1].symbol.symbol_type = 'sparkle';
    const en = await admin.patch(layer.resource_uri, { style: bad });
    assertError(en, 400, 'invalid_field');
    assert.equal(en.body.field, 'style.rules[1].symbol.symbol_type');
    assert.match(en.body.reason, /not a symbol type/);
    const de = await admin.patch(
      layer.resource_uri,
      { style: { rules: [{ symbol: { symbol_type: 'style', fill: 'rot' } }] } },
      {
        headers: { 'Accept-Language': 'de' },
      },
    );
    assertError(de, 400, 'invalid_field');
    assert.match(de.body.reason, /keine Farbe/);
    assert.equal(expectStatus<Layer>(await admin.get(layer.resource_uri), 200).revision, saved.revision);
  });

  it('exports the saved style as SLD 1.1 / SE and 1.0 for the geometry kinds of the layer', async () => {
    const depot = await featureDepot(admin, [
      { kind: 'school', pop: 800, name: 'Nord' },
      { kind: 'park', pop: 0, name: 'Süd' },
    ]);
    const layer = await newLayer(admin, { slug: 'schulen', layerpiles: [depot.resource_uri], style: STYLE });
    const res = await admin.get(`${layer.resource_uri}style.sld`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/vnd\.ogc\.sld\+xml/);
    assert.match(res.headers.get('content-disposition') ?? '', /schulen\.sld/);
    const doc = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, isArray: (n) => n === 'Rule' }).parse(
      res.body as string,
    );
    assert.equal(doc.StyledLayerDescriptor['@_version'], '1.1.0');
    const rules = doc.StyledLayerDescriptor.NamedLayer.UserStyle.FeatureTypeStyle.Rule;
    assert.deepEqual(
      rules.map((r: { Name: string }) => r.Name),
      ['Große Schulen', 'Rest'],
    );
    // The layer holds points only: point and text symbolizers, no polygon or line ones.
    assert.ok(rules[0].PointSymbolizer && rules[0].TextSymbolizer && !rules[0].PolygonSymbolizer && !rules[0].LineSymbolizer);
    assert.equal(rules[0].MaxScaleDenominator, 50000);
    assert.equal(rules[0].Filter.And.PropertyIsGreaterThanOrEqualTo.Literal, 500);
    assert.equal(rules[1].PointSymbolizer.Graphic.Mark.WellKnownName, 'triangle');
    // And read back, the style is the one saved.
    assert.deepEqual(
      (await styleFromSld(res.body as string)).rules.map((r) => r.filter ?? null),
      STYLE.rules.map((r) => r.filter ?? null),
    );

    const v10 = await admin.get(`${layer.resource_uri}style.sld?version=1.0.0`);
    assert.match(v10.body as string, /version="1\.0\.0"/);
    assert.match(v10.body as string, /<CssParameter name="fill">#ff0000<\/CssParameter>/);
  });

  it('exports a MapLibre style that MapLibre’s validator accepts, its source the layer’s GeoJSON service', async () => {
    const depot = await featureDepot(admin, [{ kind: 'school', pop: 800, name: 'Nord' }]);
    const layer = await newLayer(admin, { layerpiles: [depot.resource_uri], style: STYLE });
    const res = await admin.get(`${layer.resource_uri}style.json`);
    assert.equal(res.status, 200);
    assert.deepEqual(validateStyleMin(res.body), []);
    assert.deepEqual(
      res.body.layers.map((l: { id: string }) => l.id),
      ['rule-1-point-circle', 'rule-1-point-label', 'rule-2-point-icon'],
    );
    assert.deepEqual(res.body.sources, {
      [String(layer.id)]: { type: 'geojson', data: `${t.url}/services/geojson/${layer.id}/` },
    });
  });

  it('exports the default style for a layer without one, and only to readers', async () => {
    const layer = await newLayer(admin);
    const res = await admin.get(`${layer.resource_uri}style.sld`);
    assert.equal(res.status, 200);
    assert.match(res.body as string, /PolygonSymbolizer/);
    const other = await t.user();
    assertError(await other.client.get(`${layer.resource_uri}style.sld`), 404, 'not_found');
    assertError(await admin.get(`/api/v1/layer/999999/style.json`), 404, 'not_found');
    assertError(await admin.get(`${layer.resource_uri}style.svg`), 404, 'not_found');
  });
});
