import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer } from '@werkbank/plugin-layers/api';
import { qgisOpen } from './qgis-client';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';
import { TREES } from './wms-support';

interface Fixture {
  features: Array<{ geometry: { coordinates: [number, number] }; properties: { id: number; art: string; hoehe: number } }>;
}

/**
 * QGIS, the desktop client our users work in (issue 17): PyQGIS 3.22 headless opens a layer through
 * each service's QGIS provider and finds the depot's features — count, attribute names and types,
 * coordinates — as GDAL wrote them.
 */
describe('services: QGIS reads the layer services', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let layer: Layer;
  /** The same trees drawn with a style of known colours (Buche #ffcc00, Eiche #00aa88). */
  let styled: Layer;
  let fixture: Fixture;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-qgis-'));
    const path = treesGeojson(dir, 120);
    fixture = JSON.parse(readFileSync(path, 'utf8')) as Fixture;
    const depot = await approvedDepot(f, path);
    layer = await servedLayer(f.admin, [depot]);
    styled = await servedLayer(f.admin, [depot], { style: TREES });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Each fixture feature found by id with its attributes and its position within 1e-7°. */
  function sameFeatures(report: Awaited<ReturnType<typeof qgisOpen>>[number]): void {
    assert.ok(report.valid, report.error ?? '');
    assert.equal(report.count, fixture.features.length);
    const byId = new Map(report.features!.map((x) => [Number(x.attributes.id), x]));
    for (const expected of fixture.features) {
      const got = byId.get(expected.properties.id);
      assert.ok(got, `feature ${expected.properties.id}`);
      assert.equal(got.attributes.art, expected.properties.art);
      assert.equal(Number(got.attributes.hoehe), expected.properties.hoehe);
      const [lon, lat] = expected.geometry.coordinates;
      assert.ok(Math.abs(got.position![0] - lon) < 1e-7 && Math.abs(got.position![1] - lat) < 1e-7, JSON.stringify(got.position));
    }
  }

  it('opens the GeoJSON service through the OGR provider with integer, string and real fields', async () => {
    const [report] = await qgisOpen([{ provider: 'ogr', uri: `${f.t.url}/services/geojson/${layer.slug}/` }]);
    sameFeatures(report);
    const types = Object.fromEntries(report.fields!);
    assert.match(types.id, /^Integer/i);
    assert.match(types.art, /^String/i);
    assert.match(types.hoehe, /^Real/i);
  });

  it('opens the layer through the OGC API – Features provider, every feature with its attributes', async () => {
    const [report] = await qgisOpen([
      { provider: 'OAPIF', uri: `url='${f.t.url}/services/ogc/${layer.slug}' typename='${layer.slug}' pageSize='50'` },
    ]);
    sameFeatures(report);
    assert.deepEqual(
      ['id', 'art', 'hoehe'].filter((name) => report.fields!.some(([field]) => field === name)),
      ['id', 'art', 'hoehe'],
    );
  });

  /** The trees' area in Web Mercator metres (lon 6.78–7.01°, lat 50.78–50.87°). */
  const AREA: [number, number, number, number] = [754_800, 6_582_500, 780_400, 6_598_500];

  it('draws the layer through the WMS provider and through its vector tiles', async () => {
    const [wms, tiles] = await qgisOpen([
      {
        provider: 'wms',
        kind: 'raster',
        uri: `crs=EPSG:3857&format=image/png&layers=${layer.slug}&styles=&url=${f.t.url}/services/wms/${layer.slug}`,
        extent: AREA,
      },
      {
        provider: 'vectortile',
        kind: 'vectortile',
        uri: `type=xyz&url=${f.t.url}/services/ogc/${layer.slug}/tiles/WebMercatorQuad/{z}/{y}/{x}&zmin=0&zmax=14`,
        extent: AREA,
      },
    ]);
    for (const report of [wms, tiles]) {
      assert.ok(report.valid, report.error ?? report.uri);
      assert.deepEqual([report.image!.width, report.image!.height], [256, 256]);
      assert.ok(report.image!.drawn > 0, `${report.uri} drew nothing`);
    }
  });

  it('draws the layer through the WMS provider as WMTS (RESTful and KVP capabilities) in the style’s colours', async () => {
    // QGIS's WMTS source: the wms provider with a tile matrix set; `url` is the capabilities document,
    // RESTful or as KVP (QGIS takes an address as WMTS when it ends in WMTSCapabilities.xml or asks
    // SERVICE=WMTS, else it asks for WMS capabilities), encoded as a value of the source's query.
    const wmts = (url: string) =>
      `contextualWMSLegend=0&crs=EPSG:3857&dpiMode=7&featureCount=10&format=image/png&layers=${styled.slug}` +
      `&styles=default&tileMatrixSet=WebMercatorQuad&url=${encodeURIComponent(url)}`;
    const reports = await qgisOpen(
      [
        `${f.t.url}/services/wmts/${styled.slug}/1.0.0/WMTSCapabilities.xml`,
        `${f.t.url}/services/wmts/${styled.slug}?SERVICE=WMTS&REQUEST=GetCapabilities`,
      ].map((url) => ({
        provider: 'wms' as const,
        kind: 'raster' as const,
        uri: wmts(url),
        extent: AREA,
        width: 512,
        height: 512,
        colours: ['#ffcc00', '#00aa88'],
      })),
    );
    for (const report of reports) {
      assert.ok(report.valid, report.error ?? report.uri);
      assert.deepEqual([report.image!.width, report.image!.height], [512, 512]);
      assert.ok(report.image!.drawn > 0, `${report.uri} drew nothing`);
      // Both kinds of tree appear in their rule's fill.
      const [buche, eiche] = report.image!.coloured;
      assert.ok(buche > 20 && eiche > 20, `${report.uri}: ${buche} pixels #ffcc00, ${eiche} pixels #00aa88`);
    }
  });

  it('identifies a tree through the WMTS as a user clicks it: GetFeatureInfo as HTML and as features with their point', async () => {
    // Tree 21 (Eiche, 6.81°E 50.81°N, 6.5 m) in Web Mercator metres.
    const tree = fixture.features.find((x) => x.properties.id === 21)!;
    const [lon, lat] = tree.geometry.coordinates;
    const at: [number, number] = [
      (lon * 20037508.342789244) / 180,
      Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) * 6378137,
    ];
    const uri =
      `contextualWMSLegend=0&crs=EPSG:3857&dpiMode=7&featureCount=10&format=image/png&layers=${styled.slug}` +
      `&styles=default&tileMatrixSet=WebMercatorQuad&url=${encodeURIComponent(`${f.t.url}/services/wmts/${styled.slug}/1.0.0/WMTSCapabilities.xml`)}`;
    const [html, feature] = await qgisOpen(
      (['html', 'feature'] as const).map((identifyFormat) => ({
        provider: 'wms' as const,
        kind: 'raster' as const,
        uri,
        extent: AREA,
        width: 512,
        height: 512,
        identify: at,
        identifyFormat,
      })),
    );
    assert.ok(html.identified?.valid, html.error ?? '');
    assert.equal(html.identified!.results.length, 1);
    assert.match(String(html.identified!.results[0]), /<th>id<\/th><td>21<\/td>.*<th>art<\/th><td>Eiche<\/td>/s);
    // QGIS asks features in the last feature format the layer lists: GeoJSON, whose point it reads.
    assert.ok(feature.identified?.valid, feature.error ?? '');
    assert.deepEqual(feature.identified!.results, [
      { attributes: { id: 21, art: 'Eiche', hoehe: 6.5 }, wkt: 'Point (6.81 50.81)' },
    ]);
  });
});
