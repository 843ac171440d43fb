import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';
import { run, wfsException, wfsGet, xml, type Collection, type Feature } from './services-wfs-kit';

const BY_ID = 'urn:ogc:def:query:OGC-WFS::GetFeatureById';

/**
 * The WFS 2.0.0 operations of the Basic conformance class beyond GetFeature (decision 0083, "WFS"):
 * the stored query GetFeatureById with ListStoredQueries and DescribeStoredQueries, and
 * GetPropertyValue, read by OWSLib and checked against the features GDAL wrote.
 */
describe('services: WFS stored queries and GetPropertyValue', function () {
  this.timeout(120_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let layer: Layer;
  let source: Collection;
  let wfs: string;
  /** The served id of the source feature with the id property 7. */
  let served7: string;

  const get = (query: string) => wfsGet(wfs, query);
  const exception = (query: string, status = 400) => wfsException(wfs, query, status);
  const v2 = 'SERVICE=WFS&VERSION=2.0.0';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-wfs-stored-'));
    const path = treesGeojson(dir, 30);
    source = JSON.parse(readFileSync(path, 'utf8')) as Collection;
    layer = await servedLayer(f.admin, [await approvedDepot(f, path)]);
    wfs = `${f.t.url}/services/wfs/${layer.slug}`;
    const all = JSON.parse(
      (await get(`${v2}&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&OUTPUTFORMAT=application/json`)).text,
    ) as Collection;
    assert.equal(all.features.length, 30);
    served7 = String(all.features.find((x) => x.properties.id === 7)!.id);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('announces the operations of a Basic WFS and lists and describes GetFeatureById', async () => {
    const caps = xml.parse((await get(`${v2}&REQUEST=GetCapabilities`)).text).WFS_Capabilities;
    const ops = (caps.OperationsMetadata.Operation as Array<{ '@_name': string }>).map((o) => o['@_name']);
    for (const op of ['GetPropertyValue', 'ListStoredQueries', 'DescribeStoredQueries']) assert.ok(ops.includes(op), op);
    const basic = (caps.OperationsMetadata.Constraint as Array<{ '@_name': string; DefaultValue: string }>).find(
      (c) => c['@_name'] === 'ImplementsBasicWFS',
    );
    assert.equal(basic?.DefaultValue, 'TRUE');

    const list = xml.parse((await get(`${v2}&REQUEST=ListStoredQueries`)).text).ListStoredQueriesResponse;
    assert.equal(list.StoredQuery['@_id'], BY_ID);
    assert.equal(list.StoredQuery.ReturnFeatureType, `wb:${layer.slug}`);
    assert.equal(list.StoredQuery.Title, 'Get a feature by its id');

    const described = await get(`${v2}&REQUEST=DescribeStoredQueries&STOREDQUERY_ID=${BY_ID}`);
    const d = xml.parse(described.text).DescribeStoredQueriesResponse.StoredQueryDescription;
    assert.equal(d['@_id'], BY_ID);
    assert.equal(d.Parameter['@_name'], 'ID');
    assert.equal(d.QueryExpressionText['@_returnFeatureTypes'], `wb:${layer.slug}`);
    // In German for a German caller.
    const de = await wfsGet(wfs, `${v2}&REQUEST=ListStoredQueries`, { 'Accept-Language': 'de' });
    assert.equal(xml.parse(de.text).ListStoredQueriesResponse.StoredQuery.Title, 'Ein Feature über seine ID abrufen');
  });

  it('gives the feature itself for GetFeatureById, as GML 3.2 or GeoJSON and in another CRS, through OWSLib too', async () => {
    const expected = source.features.find((x) => x.properties.id === 7)!;
    const json = JSON.parse(
      (await get(`${v2}&REQUEST=GetFeature&STOREDQUERY_ID=${BY_ID}&ID=${served7}&OUTPUTFORMAT=application/json`)).text,
    ) as Feature;
    assert.equal(json.type, 'Feature');
    assert.equal(json.properties.id, 7);
    assert.equal(json.properties.art, expected.properties.art);
    assert.ok(Math.abs(json.geometry.coordinates[0] - expected.geometry.coordinates[0]) < 1e-7);
    assert.ok(Math.abs(json.geometry.coordinates[1] - expected.geometry.coordinates[1]) < 1e-7);

    const gml = await get(`${v2}&REQUEST=GetFeature&STOREDQUERY_ID=${BY_ID}&ID=${layer.slug}.${served7}`);
    assert.match(gml.type, /application\/gml\+xml; version=3\.2/);
    const root = xml.parse(gml.text)[layer.slug!];
    assert.ok(root, gml.text);
    assert.equal(root.id, 7);
    // Latitude first in EPSG:4326, as WFS 2.0 writes it.
    const [lat, lon] = String(root.geometry.Point.pos['#text']).split(' ').map(Number);
    assert.ok(Math.abs(lon - expected.geometry.coordinates[0]) < 1e-7 && Math.abs(lat - expected.geometry.coordinates[1]) < 1e-7);

    const utm = JSON.parse(
      (
        await get(
          `${v2}&REQUEST=GetFeature&STOREDQUERY_ID=${BY_ID}&ID=${served7}&OUTPUTFORMAT=application/json&SRSNAME=EPSG:25832`,
        )
      ).text,
    ) as Feature;
    assert.ok(utm.geometry.coordinates[0] > 300_000 && utm.geometry.coordinates[1] > 5_600_000, JSON.stringify(utm.geometry));

    const script = [
      'import sys, json',
      'from owslib.wfs import WebFeatureService',
      `w = WebFeatureService(sys.argv[1], version='2.0.0')`,
      `r = w.getfeature(storedQueryID='${BY_ID}', storedQueryParams={'ID': sys.argv[2]}, outputFormat='application/json')`,
      'print(json.dumps(json.loads(r.read())["properties"]))',
    ].join('\n');
    const { stdout } = await run('/usr/bin/python3', ['-c', script, wfs, served7]);
    assert.equal((JSON.parse(stdout) as { id: number }).id, 7);
  });

  it('answers GetFeatureById for a missing id with 404 and unknown stored queries with an exception', async () => {
    const missing = await exception(`${v2}&REQUEST=GetFeature&STOREDQUERY_ID=${BY_ID}&ID=nope`, 404);
    assert.equal(missing.code, 'NotFound');
    assert.match(missing.text, /nope/);
    const noId = await exception(`${v2}&REQUEST=GetFeature&STOREDQUERY_ID=${BY_ID}`);
    assert.equal(noId.code, 'MissingParameterValue');
    const unknown = await exception(`${v2}&REQUEST=GetFeature&STOREDQUERY_ID=urn:example:AllTrees`);
    assert.equal(unknown.locator, 'storedQuery_id');
    const unknownDescribed = await exception(`${v2}&REQUEST=DescribeStoredQueries&STOREDQUERY_ID=urn:example:AllTrees`);
    assert.equal(unknownDescribed.code, 'InvalidParameterValue');
    // WFS 1.1.0 has none of these operations.
    const old = await exception(`SERVICE=WFS&VERSION=1.1.0&REQUEST=ListStoredQueries`);
    assert.equal(old.code, 'OperationNotSupported');
  });

  it('gives the values of a property or the geometries with GetPropertyValue: filtered, paged and counted', async () => {
    const values = xml.parse(
      (await get(`${v2}&REQUEST=GetPropertyValue&TYPENAMES=wb:${layer.slug}&VALUEREFERENCE=art`)).text,
    ).ValueCollection;
    assert.equal(values['@_numberMatched'], '30');
    assert.deepEqual((values.member as string[]).slice().sort(), source.features.map((x) => String(x.properties.art)).sort());
    const filter = encodeURIComponent(
      '<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0"><fes:PropertyIsEqualTo><fes:ValueReference>art</fes:ValueReference><fes:Literal>Eiche</fes:Literal></fes:PropertyIsEqualTo></fes:Filter>',
    );
    const page = xml.parse(
      (
        await get(
          `${v2}&REQUEST=GetPropertyValue&TYPENAMES=wb:${layer.slug}&VALUEREFERENCE=wb:hoehe&FILTER=${filter}&STARTINDEX=5&COUNT=4`,
        )
      ).text,
    ).ValueCollection;
    assert.equal(page['@_numberReturned'], '4');
    const oaks = source.features.filter((x) => x.properties.art === 'Eiche').map((x) => x.properties.hoehe);
    assert.deepEqual((page.member as number[]).map(Number), oaks.slice(5, 9));
    const hits = xml.parse(
      (await get(`${v2}&REQUEST=GetPropertyValue&TYPENAMES=wb:${layer.slug}&VALUEREFERENCE=art&FILTER=${filter}&RESULTTYPE=hits`))
        .text,
    ).ValueCollection;
    assert.equal(hits['@_numberMatched'], String(oaks.length));
    assert.equal(hits['@_numberReturned'], '0');
    const geometries = xml.parse(
      (await get(`${v2}&REQUEST=GetPropertyValue&TYPENAMES=wb:${layer.slug}&VALUEREFERENCE=geometry&COUNT=2`)).text,
    ).ValueCollection;
    assert.equal((geometries.member as unknown[]).length, 2);
    assert.ok((geometries.member as Array<{ Point: unknown }>).every((m) => m.Point));

    const unknown = await exception(`${v2}&REQUEST=GetPropertyValue&TYPENAMES=wb:${layer.slug}&VALUEREFERENCE=kronendurchmesser`);
    assert.equal(unknown.locator, 'valueReference');
    const without = await exception(`${v2}&REQUEST=GetPropertyValue&TYPENAMES=wb:${layer.slug}`);
    assert.equal(without.code, 'MissingParameterValue');
  });
});
