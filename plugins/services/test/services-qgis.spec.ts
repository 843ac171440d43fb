import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer } from '@werkbank/plugin-layers/api';
import { qgisOpen } from './qgis-client';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';

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
  let fixture: Fixture;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-qgis-'));
    const path = treesGeojson(dir, 120);
    fixture = JSON.parse(readFileSync(path, 'utf8')) as Fixture;
    layer = await servedLayer(f.admin, [await approvedDepot(f, path)]);
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
});
