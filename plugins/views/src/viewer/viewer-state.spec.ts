import assert from 'node:assert/strict';
import type { SceneLayer, SceneLayerGroup } from '../common/view-scene';
import { newLayerGroup, newViewLayer } from '../common/view-tree';
import {
  activeFilters,
  drawnLayers,
  imageryName,
  imageryOf,
  initialState,
  setFilter,
  switchLayer,
  timeRange,
  withQuery,
} from './viewer-state';
import { featureInfoUrl, safeUrl } from './feature-info';
import { sceneAddress, sharedCamera } from './viewer-address';

const source = (name: string, bbox: [number, number, number, number] | null = null): SceneLayer['source'] => ({
  id: 1,
  name,
  description_title: '',
  description: '',
  bbox,
  modified: '2026-11-27T00:00:00Z',
  wms: { url: `/services/wms/${name}`, layers: name },
  wmts: name === 'v1' ? { url: `/services/wmts/${name}`, layer: name, tileMatrixSet: 'WebMercatorQuad' } : null,
  geojson: null,
  selection_title: '',
  selection_fields: [],
  attribute_filters: [],
});
const layer = (id: string, over: Partial<SceneLayer> = {}): SceneLayer => ({
  ...newViewLayer(`/api/v1/layer/${id}/`, id),
  source: source(id),
  ...over,
});
const group = (over: Partial<SceneLayerGroup>): SceneLayerGroup => ({
  ...newLayerGroup('G'),
  layers: [],
  layergroups: [],
  ...over,
});

describe('viewer: layer state', () => {
  const root = group({
    layers: [layer('a'), layer('b', { init_visible: false, opacity: 0.5 }), layer('gone', { source: undefined })],
    layergroups: [
      group({ name: 'Varianten', group_display: 'variants', layers: [layer('v1'), layer('v2', { init_visible: false })] }),
    ],
  });

  it('opens with the entries and groups switched on as configured and draws only readable ones', () => {
    const s = initialState(root);
    assert.deepEqual(
      drawnLayers(root, s).map((l) => l.id),
      ['a', 'v1'],
    );
    // Switched-off groups hide their layers.
    assert.deepEqual(
      drawnLayers(root, { ...s, groupsOn: { 0: false } }).map((l) => l.id),
      ['a'],
    );
  });

  it('shows one variant at a time, and a single entry switches off its siblings', () => {
    const s = switchLayer(initialState(root), root.layergroups[0], root.layergroups[0].layers[1], true);
    assert.deepEqual(
      drawnLayers(root, s).map((l) => l.id),
      ['a', 'v2'],
    );
    const single = { ...root.layers[1], single: true };
    const t = switchLayer(initialState(root), root, single, true);
    assert.deepEqual([t.on.a, t.on.b], [false, true]);
  });

  it('draws the first row of the tree on top, from WMTS where there is one, and names a frozen view in each request', () => {
    const s = initialState(root);
    const imagery = imageryOf(drawnLayers(root, s), s, 'stand_2026');
    assert.deepEqual(imagery.map(imageryName), ['v1', 'a']);
    assert.equal(imagery[1].url, '/services/wms/a?finalview=stand_2026');
    assert.equal(imageryOf(drawnLayers(root, s), s, null)[1].url, '/services/wms/a');
  });
});

describe('viewer: addresses', () => {
  it('opens views by short name or id and frozen views by short name', () => {
    assert.equal(sceneAddress('/viewer/stadtgruen/'), '/api/v2/presenting/view/stadtgruen/scene');
    assert.equal(sceneAddress('/viewer/12'), '/api/v2/presenting/view/12/scene');
    assert.equal(sceneAddress('/finalview/stand_2026/'), '/api/v2/presenting/finalview/stand_2026/scene');
    assert.equal(sceneAddress('/viewer/a/b/'), undefined);
  });

  it('reads a shared camera, refusing what is not one', () => {
    assert.deepEqual(sharedCamera('?camera=6.9,50.9,1200,0,-45,0'), {
      lon: 6.9,
      lat: 50.9,
      height: 1200,
      heading: 0,
      pitch: -45,
      roll: 0,
    });
    assert.equal(sharedCamera('?camera=6.9,50.9'), undefined);
    assert.equal(sharedCamera('?camera=200,50,1,0,0,0'), undefined);
    assert.equal(sharedCamera('?camera=a,b,c,d,e,f'), undefined);
  });

  it('asks GetFeatureInfo for a window around the click, latitude first', () => {
    const url = new URL(
      featureInfoUrl(layer('a'), { lon: 7, lat: 51, metresPerPixel: 10 }, { finalview: 'stand', wb_filter: '' }),
      'http://x',
    );
    assert.equal(url.searchParams.get('finalview'), 'stand');
    assert.equal(url.searchParams.has('wb_filter'), false);
    const [s, w, n, e] = url.searchParams.get('BBOX')!.split(',').map(Number);
    assert.ok(s < 51 && n > 51 && w < 7 && e > 7);
    assert.ok(Math.abs(n - s - (101 * 10) / 111_320) < 1e-6);
    assert.equal(url.searchParams.get('I'), '50');
    assert.equal(url.searchParams.get('INFO_FORMAT'), 'application/json');
  });

  it('follows only web and relative addresses from feature attributes', () => {
    assert.equal(safeUrl('https://example.org/a'), 'https://example.org/a');
    assert.equal(safeUrl('/docs/a'), '/docs/a');
    assert.equal(safeUrl('javascript:alert(1)'), undefined);
    assert.equal(safeUrl('//evil.example/a'), undefined);
    assert.equal(safeUrl(''), undefined);
  });
});

describe('viewer: attribute filters and the time slider (decision 0091)', () => {
  const art = {
    attribute_key: 'art',
    filter: { filter_type: 'allowed-values' as const, filter_arguments: { allowed_values: ['Wald', 'Wiese'] } },
  };
  const datum = {
    attribute_key: 'datum',
    filter: { filter_type: 'temporal-bounds' as const, filter_arguments: { time_min: '2000-01-01T00:00:00Z', time_max: null } },
  };
  const hidden = { ...art, attribute_key: 'intern', visible: false };
  const filtered = (over: Partial<SceneLayer> = {}) =>
    layer('v1', { ...over, source: { ...source('v1')!, attribute_filters: [art, datum, hidden] } });

  it('sends nothing while the filters are as the layer offers them, and the WMS with the changed ones instead of cached tiles', () => {
    const l = filtered();
    const root = group({ layers: [l] });
    const s = initialState(root);
    assert.deepEqual(activeFilters(l, s), []);
    assert.equal(imageryOf([l], s, null)[0].kind, 'wmts');
    const wald = { ...art, filter: { ...art.filter, filter_arguments: { allowed_values: ['Wald'] } } };
    const set = setFilter(s, l, 0, wald);
    assert.deepEqual(activeFilters(l, set), [wald, datum]);
    const [drawn] = imageryOf([l], set, 'stand');
    assert.equal(drawn.kind, 'wms');
    const url = new URL(drawn.url, 'http://x');
    assert.equal(url.searchParams.get('finalview'), 'stand');
    assert.deepEqual(JSON.parse(url.searchParams.get('wb_filter')!)[0].filter.filter_arguments, { allowed_values: ['Wald'] });
    // Back as offered: nothing sent again.
    assert.deepEqual(activeFilters(l, setFilter(set, l, 0, undefined)), []);
  });

  it('spans the slider over the entries’ time ranges, hides entries outside the chosen time and filters the data up to it', () => {
    const old = filtered({ id: 'old', time_min: '2000-01-01T00:00:00Z', time_max: '2010-12-31T00:00:00Z' });
    const recent = layer('recent', { time_min: '2005-01-01T00:00:00Z', time_max: '2020-12-31T00:00:00Z' });
    const always = layer('always');
    const root = group({ layers: [old, recent, always] });
    assert.deepEqual(timeRange(root), ['2000-01-01T00:00:00Z', '2020-12-31T00:00:00Z']);
    assert.equal(timeRange(group({ layers: [always] })), null);
    const s = initialState(root);
    assert.deepEqual(
      drawnLayers(root, { ...s, time: '2015-06-01T00:00:00Z' }).map((l) => l.id),
      ['recent', 'always'],
    );
    const at2008 = { ...s, time: '2008-06-01T00:00:00Z' };
    assert.deepEqual(
      drawnLayers(root, at2008).map((l) => l.id),
      ['old', 'recent', 'always'],
    );
    assert.deepEqual(activeFilters(old, at2008), [
      {
        ...datum,
        filter: { ...datum.filter, filter_arguments: { time_min: '2000-01-01T00:00:00Z', time_max: '2008-06-01T00:00:00Z' } },
      },
    ]);
  });

  it('adds query parameters to addresses with and without a query, leaving out empty ones', () => {
    assert.equal(withQuery('/a', { x: '1', y: '' }), '/a?x=1');
    assert.equal(withQuery('/a?b=2', { x: 'ä b' }), '/a?b=2&x=%C3%A4%20b');
    assert.equal(withQuery('/a', { y: '' }), '/a');
    assert.equal(withQuery('/a', { bbox: '1,2,3,4' }), '/a?bbox=1,2,3,4');
  });
});

describe('viewer: measuring and the coordinates readout', () => {
  it('measures a path, then the ring it closes, geodesically', async () => {
    const { measured, formatArea, formatLength } = await import('./measure');
    const line = measured([
      [0, 0],
      [1, 0],
    ]);
    assert.ok(Math.abs(line.length - 111_319.49) < 0.01);
    assert.equal(line.area, null);
    const cell = measured([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    assert.ok(cell.area! > 6.1e9 && cell.area! < 6.2e9);
    assert.equal(formatLength(123.45, 'de'), '123,5 m');
    assert.equal(formatLength(111_319.49, 'en'), '111.32 km');
    assert.equal(formatArea(5000, 'en'), '5,000 m²');
    assert.equal(formatArea(250_000, 'de'), '25,00 ha');
    assert.equal(formatArea(6.15e9, 'fr'), '6 150,00 km²'.replace(' ', '\u202f'));
  });

  it('reads out WGS 84 degrees and ETRS89 / UTM 32N metres', async () => {
    const { readout } = await import('./measure');
    assert.deepEqual(readout(6.958, 50.941, 'en'), { lat: '50.94100', lon: '6.95800', e: '356,538', n: '5,645,249' });
  });
});

describe('viewer: markdown of selection fields', () => {
  it('renders Markdown, writes raw HTML as text and drops unsafe addresses', async () => {
    const { markdownHtml } = await import('./markdown');
    assert.equal(markdownHtml('**Eiche**, *alt*'), '<p><strong>Eiche</strong>, <em>alt</em></p>\n');
    assert.equal(
      markdownHtml('[Kataster](https://example.org/k)'),
      '<p><a href="https://example.org/k" target="_blank" rel="noopener noreferrer">Kataster</a></p>\n',
    );
    assert.equal(markdownHtml('[böse](javascript:alert(1))'), '<p>böse</p>\n');
    assert.equal(markdownHtml('<script>alert(1)</script>'), '&lt;script&gt;alert(1)&lt;/script&gt;');
    assert.equal(markdownHtml('a <img src=x onerror=alert(1)> b'), '<p>a &lt;img src=x onerror=alert(1)&gt; b</p>\n');
    assert.equal(markdownHtml('![Bild](javascript:x)'), '<p>Bild</p>\n');
  });
});
