import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectStatus, userUri } from '@werkbank/testing/node';
import type { Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';
import { run, sameFeatures, wfsException, wfsGet, xml, type Collection } from './services-wfs-kit';

/**
 * The WFS's requests (issue 17, decision 0083): hits and paging, FES filters, the feature type's
 * schema, exception reports for bad input and the 404 of a hidden layer.
 */
describe('services: WFS requests, filters and exceptions', function () {
  this.timeout(120_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let trees: Depot;
  let layer: Layer;
  let source: Collection;
  let wfs: string;

  const get = (query: string, headers: Record<string, string> = {}) => wfsGet(wfs, query, headers);
  const sameAsSource = (fc: Collection, expected = source.features) => sameFeatures(fc, expected);
  const exception = (query: string, status = 400, headers: Record<string, string> = {}, slug = layer.slug) =>
    wfsException(`${f.t.url}/services/wfs/${slug}`, query, status, headers);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-wfs-requests-'));
    const path = treesGeojson(dir);
    source = JSON.parse(readFileSync(path, 'utf8')) as Collection;
    trees = await approvedDepot(f, path);
    layer = await servedLayer(f.admin, [trees], { description: 'Bäume & Sträucher <Köln>' });
    wfs = `${f.t.url}/services/wfs/${layer.slug}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('counts hits, pages by COUNT and STARTINDEX in a stable order and gives GeoJSON', async () => {
    const hits = await get(`SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&RESULTTYPE=hits`);
    assert.match(hits.text, /numberMatched="400" numberReturned="0"/);
    const hits11 = await get(
      `service=wfs&version=1.1.0&request=GetFeature&typename=wb:${layer.slug}&resultType=hits&bbox=50.795,6.795,50.825,6.845`,
    );
    assert.match(hits11.text, /numberOfFeatures="15"/);
    const page = (start: number, count: number) =>
      get(
        `SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&OUTPUTFORMAT=application/json&STARTINDEX=${start}&COUNT=${count}`,
      ).then((r) => JSON.parse(r.text) as Collection);
    const all = await page(0, 1000);
    assert.equal(all.numberMatched, 400);
    assert.equal(all.numberReturned, 400);
    sameAsSource(all);
    const ids: unknown[] = [];
    for (let start = 0; start < 400; start += 150) {
      const p = await page(start, 150);
      assert.equal(p.numberReturned, Math.min(150, 400 - start));
      ids.push(...p.features.map((x) => x.id));
    }
    assert.deepEqual(
      ids,
      all.features.map((x) => x.id),
    );
    // Only the properties asked for (with or without prefix).
    const some = JSON.parse(
      (
        await get(
          `SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&OUTPUTFORMAT=application/json&COUNT=2&PROPERTYNAME=wb:art,hoehe`,
        )
      ).text,
    ) as Collection;
    assert.deepEqual(
      some.features.map((x) => Object.keys(x.properties)),
      [
        ['art', 'hoehe'],
        ['art', 'hoehe'],
      ],
    );
    const beyond = await page(1000, 10);
    assert.equal(beyond.features.length, 0);
    assert.equal(beyond.numberReturned, 0);
  });

  it('heads a long answer with the right numberReturned while writing it as the rows arrive (1500 features)', async () => {
    const big = await servedLayer(f.admin, [await approvedDepot(f, treesGeojson(dir, 1500))]);
    const url = `${f.t.url}/services/wfs/${big.slug}`;
    const members = (text: string) => (text.match(/<wfs:member>/g) ?? []).length;
    const gf = `SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${big.slug}`;
    const all = await wfsGet(url, gf);
    assert.match(all.text, /numberMatched="1500" numberReturned="1500"/);
    assert.equal(members(all.text), 1500);
    // Without a filter the spatial index counts the layer first, so even a long page names both numbers.
    const page = await wfsGet(url, `${gf}&STARTINDEX=100&COUNT=1200`);
    assert.match(page.text, /numberMatched="1500" numberReturned="1200"/);
    // With a filter, more than the features held back: counted in a second pass that stops at the page's end.
    const like = encodeURIComponent(
      '<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0"><fes:PropertyIsGreaterThanOrEqualTo>' +
        '<fes:ValueReference>id</fes:ValueReference><fes:Literal>0</fes:Literal></fes:PropertyIsGreaterThanOrEqualTo></fes:Filter>',
    );
    const filtered = await wfsGet(url, `${gf}&STARTINDEX=100&COUNT=1200&FILTER=${like}`);
    assert.match(filtered.text, /numberMatched="unknown" numberReturned="1200"/);
    assert.equal(members(filtered.text), 1200);
    assert.equal(members(page.text), 1200);
    const tail = await wfsGet(url, `${gf}&STARTINDEX=250`);
    assert.match(tail.text, /numberMatched="1500" numberReturned="1250"/);
    assert.equal(members(tail.text), 1250);
    const ids = (text: string) => [...text.matchAll(/gml:id="([^".]+\.\d+)"/g)].map((m) => m[1]);
    assert.deepEqual(ids(page.text), ids(all.text).slice(100, 1300), 'pages follow the datum order');
    const json = JSON.parse((await wfsGet(url, `${gf}&STARTINDEX=250&OUTPUTFORMAT=application/json`)).text) as Collection;
    assert.equal(json.numberReturned, 1250);
    assert.equal(json.features.length, 1250);
  });

  it('applies FES 2.0 filters: comparisons, Like, Null, Between, logic, BBOX, Intersects and resource ids', async () => {
    const fes = (body: string) =>
      `<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0" xmlns:gml="http://www.opengis.net/gml/3.2">${body}</fes:Filter>`;
    const query = async (filter: string, extra = '') => {
      const r = await get(
        `SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&OUTPUTFORMAT=application/json&FILTER=${encodeURIComponent(filter)}${extra}`,
      );
      assert.equal(r.status, 200, r.text);
      return (JSON.parse(r.text) as Collection).features.map((x) => x.properties.id as number).sort((a, b) => a - b);
    };
    const ids = (test: (p: Record<string, unknown>, c: number[]) => boolean) =>
      source.features
        .filter((x) => test(x.properties, x.geometry.coordinates))
        .map((x) => x.properties.id as number)
        .sort((a, b) => a - b);
    const cmp = (op: string, prop: string, value: string) =>
      fes(`<fes:${op}><fes:ValueReference>wb:${prop}</fes:ValueReference><fes:Literal>${value}</fes:Literal></fes:${op}>`);
    assert.deepEqual(
      await query(cmp('PropertyIsEqualTo', 'art', 'Eiche')),
      ids((p) => p.art === 'Eiche'),
    );
    assert.deepEqual(
      await query(cmp('PropertyIsNotEqualTo', 'art', 'Eiche')),
      ids((p) => p.art !== 'Eiche'),
    );
    assert.deepEqual(
      await query(cmp('PropertyIsLessThan', 'hoehe', '7.5')),
      ids((p) => (p.hoehe as number) < 7.5),
    );
    assert.deepEqual(
      await query(cmp('PropertyIsGreaterThan', 'id', '390')),
      ids((p) => (p.id as number) > 390),
    );
    assert.deepEqual(await query(cmp('PropertyIsLessThanOrEqualTo', 'id', '3')), [0, 1, 2, 3]);
    assert.deepEqual(
      await query(cmp('PropertyIsGreaterThanOrEqualTo', 'hoehe', '24.5')),
      ids((p) => (p.hoehe as number) >= 24.5),
    );
    assert.deepEqual(
      await query(
        fes(
          `<fes:PropertyIsLike wildCard="*" singleChar="?" escapeChar="!"><fes:ValueReference>art</fes:ValueReference><fes:Literal>B?c*</fes:Literal></fes:PropertyIsLike>`,
        ),
      ),
      ids((p) => p.art === 'Buche'),
    );
    assert.deepEqual(
      await query(fes(`<fes:PropertyIsNull><fes:ValueReference>art</fes:ValueReference></fes:PropertyIsNull>`)),
      [],
    );
    assert.deepEqual(
      await query(
        fes(
          `<fes:PropertyIsBetween><fes:ValueReference>id</fes:ValueReference><fes:LowerBoundary><fes:Literal>10</fes:Literal></fes:LowerBoundary><fes:UpperBoundary><fes:Literal>12</fes:Literal></fes:UpperBoundary></fes:PropertyIsBetween>`,
        ),
      ),
      [10, 11, 12],
    );
    const inner = (op: string, prop: string, value: string) =>
      `<fes:${op}><fes:ValueReference>${prop}</fes:ValueReference><fes:Literal>${value}</fes:Literal></fes:${op}>`;
    assert.deepEqual(
      await query(
        fes(
          `<fes:Or><fes:And>${inner('PropertyIsEqualTo', 'art', 'Buche')}${inner('PropertyIsLessThan', 'id', '5')}</fes:And><fes:Not>${inner('PropertyIsLessThan', 'id', '398')}</fes:Not></fes:Or>`,
        ),
      ),
      [0, 2, 4, 398, 399],
    );
    // BBOX and Intersects with an envelope (latitude first), a polygon and a point; an envelope in EPSG:25832.
    const inBox = (c: number[]) => c[0] > 6.795 && c[0] < 6.845 && c[1] > 50.795 && c[1] < 50.825;
    assert.deepEqual(
      await query(
        fes(
          `<fes:BBOX><fes:ValueReference>geometry</fes:ValueReference><gml:Envelope srsName="urn:ogc:def:crs:EPSG::4326"><gml:lowerCorner>50.795 6.795</gml:lowerCorner><gml:upperCorner>50.825 6.845</gml:upperCorner></gml:Envelope></fes:BBOX>`,
        ),
      ),
      ids((_, c) => inBox(c)),
    );
    assert.deepEqual(
      await query(
        fes(
          `<fes:Intersects><fes:ValueReference>geometry</fes:ValueReference><gml:Polygon gml:id="p" srsName="http://www.opengis.net/def/crs/EPSG/0/4326"><gml:exterior><gml:LinearRing><gml:posList>50.795 6.795 50.795 6.845 50.826 6.845 50.795 6.795</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon></fes:Intersects>`,
        ),
      ),
      // The triangle below the diagonal from (6.795, 50.795) to (6.845, 50.826).
      ids((_, [x, y]) => inBox([x, y]) && (y - 50.795) / 0.031 < (x - 6.795) / 0.05),
    );
    const p0 = source.features[21].geometry.coordinates;
    assert.deepEqual(
      await query(
        fes(
          `<fes:Intersects><fes:ValueReference>geometry</fes:ValueReference><gml:Point gml:id="q" srsName="EPSG:4326"><gml:pos>${p0[0]} ${p0[1]}</gml:pos></gml:Point></fes:Intersects>`,
        ),
      ),
      [21],
    );
    // The same features by an envelope in EPSG:25832 around their positions there (by ogr2ogr), 1 m wider.
    const utmPath = join(dir, 'filter-25832.geojson');
    await run('ogr2ogr', ['-f', 'GeoJSON', '-lco', 'RFC7946=NO', '-t_srs', 'EPSG:25832', utmPath, treesGeojson(dir)]);
    const utm = (JSON.parse(readFileSync(utmPath, 'utf8')) as Collection).features.filter((x) =>
      ids((_, c) => inBox(c)).includes(x.properties.id as number),
    );
    const xs = utm.map((x) => x.geometry.coordinates[0]);
    const ys = utm.map((x) => x.geometry.coordinates[1]);
    assert.deepEqual(
      await query(
        fes(
          `<fes:BBOX><gml:Envelope srsName="urn:ogc:def:crs:EPSG::25832"><gml:lowerCorner>${Math.min(...xs) - 1} ${Math.min(...ys) - 1}</gml:lowerCorner><gml:upperCorner>${Math.max(...xs) + 1} ${Math.max(...ys) + 1}</gml:upperCorner></gml:Envelope></fes:BBOX>`,
        ),
      ),
      ids((_, c) => inBox(c)),
    );
    // Resource ids as the GML answers give them (gml:id).
    const gmlIds = [
      ...(await get(`SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&COUNT=3`)).text.matchAll(
        /<wb:\w+ gml:id="([^"]+)"/g,
      ),
    ].map((m) => m[1]);
    assert.equal(gmlIds.length, 3);
    const firstIds = ids(() => true).slice(0, 3);
    assert.deepEqual(
      await query(`<fes:Filter xmlns:fes="http://www.opengis.net/fes/2.0"><fes:ResourceId rid="${gmlIds[2]}"/></fes:Filter>`),
      [firstIds[2]],
    );
    assert.deepEqual(await query('', `&RESOURCEID=${gmlIds[0]},${gmlIds[1]}`), firstIds.slice(0, 2));
    // BBOX as a parameter, with its CRS.
    assert.deepEqual(
      await query('', '&BBOX=6.795,50.795,6.845,50.825,EPSG:4326'),
      ids((_, c) => inBox(c)),
    );
    assert.deepEqual(
      await query('', '&BBOX=50.795,6.795,50.825,6.845,urn:ogc:def:crs:EPSG::4326'),
      ids((_, c) => inBox(c)),
    );
  });

  it('describes the feature type as XSD from the attributes and their types', async () => {
    for (const [version, gmlNs] of [
      ['2.0.0', 'http://www.opengis.net/gml/3.2'],
      ['1.1.0', 'http://www.opengis.net/gml'],
    ]) {
      const r = await get(`SERVICE=WFS&VERSION=${version}&REQUEST=DescribeFeatureType&TYPENAME=wb:${layer.slug}`);
      assert.equal(r.status, 200);
      const schema = xml.parse(r.text).schema;
      assert.ok(r.text.includes(`xmlns:gml="${gmlNs}"`));
      assert.equal(schema['@_targetNamespace'], wfs);
      const elements = schema.complexType.complexContent.extension.sequence.element as Array<Record<string, string>>;
      assert.deepEqual(
        elements.map((e) => [e['@_name'], e['@_type']]),
        [
          ['geometry', 'gml:PointPropertyType'],
          ['id', 'xsd:int'],
          ['art', 'xsd:string'],
          ['hoehe', 'xsd:double'],
        ],
      );
    }
  });

  it('answers bad requests with OWS ExceptionReports in the caller language, never with a 500', async () => {
    const gf = `SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}`;
    let e = await exception(`SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:nope`);
    assert.deepEqual([e.code, e.locator], ['InvalidParameterValue', 'typeNames']);
    assert.equal(e.report['@_version'], '2.0.0');
    e = await exception(`${gf}&BBOX=1,2,3`);
    assert.deepEqual([e.code, e.locator], ['InvalidParameterValue', 'bbox']);
    e = await exception(`${gf}&BBOX=10,0,5,1,EPSG:4326`);
    assert.match(e.text, /lower corner/);
    e = await exception(`${gf}&FILTER=${encodeURIComponent('<Filter><PropertyIsEqualTo><ValueReference>art</ValueReference>')}`);
    assert.deepEqual([e.code, e.locator], ['InvalidParameterValue', 'filter']);
    e = await exception(`${gf}&FILTER=${encodeURIComponent('<Filter><PropertyIsSomething/></Filter>')}`);
    assert.match(e.text, /PropertyIsSomething/);
    const entity =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Filter><PropertyIsEqualTo><ValueReference>art</ValueReference><Literal>&e;</Literal></PropertyIsEqualTo></Filter>';
    e = await exception(`${gf}&FILTER=${encodeURIComponent(entity)}`);
    assert.match(e.text, /entity/);
    const deep = `<Filter>${'<Not>'.repeat(500)}<PropertyIsNull><ValueReference>a</ValueReference></PropertyIsNull>${'</Not>'.repeat(500)}</Filter>`;
    e = await exception(`${gf}&FILTER=${encodeURIComponent(deep)}`);
    assert.match(e.text, /too large|too deeply/);
    e = await exception(`${gf}&SRSNAME=EPSG:2154`);
    assert.deepEqual([e.code, e.locator], ['InvalidParameterValue', 'srsName']);
    e = await exception(`${gf}&SRSNAME=EPSG:2154`, 400, { 'accept-language': 'de' });
    assert.match(e.text, /Koordinatenreferenzsystem/);
    e = await exception(`${gf}&OUTPUTFORMAT=shape-zip`);
    assert.deepEqual([e.code, e.locator], ['InvalidParameterValue', 'outputFormat']);
    e = await exception(`${gf}&COUNT=-1`);
    assert.deepEqual([e.code, e.locator], ['InvalidParameterValue', 'count']);
    e = await exception(`SERVICE=WFS&REQUEST=GetCapabilities&ACCEPTVERSIONS=3.0.0`);
    assert.equal(e.code, 'VersionNegotiationFailed');
    e = await exception(`SERVICE=WFS&VERSION=3.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}`);
    assert.deepEqual([e.code, e.locator], ['InvalidParameterValue', 'version']);
    e = await exception(`SERVICE=WFS&VERSION=2.0.0&REQUEST=Transaction`);
    assert.deepEqual([e.code, e.locator], ['OperationNotSupported', 'request']);
    e = await exception(`SERVICE=WFS&VERSION=2.0.0`);
    assert.deepEqual([e.code, e.locator], ['MissingParameterValue', 'request']);
    e = await exception(`SERVICE=WFS&VERSION=1.1.0&REQUEST=GetFeature&TYPENAME=wb:nope`);
    assert.equal(e.report['@_version'], '1.0.0');
    assert.equal(e.code, 'InvalidParameterValue');
  });

  it('hides an internal layer: 404 for anonymous callers, the same as a layer that does not exist', async () => {
    const reader = await f.t.user();
    const internal = await servedLayer(f.admin, [trees], {
      public: false,
      permissions: [{ user: userUri(reader.id), perms: ['read'] }],
    });
    const caps = 'SERVICE=WFS&REQUEST=GetCapabilities';
    const hidden = await exception(caps, 404, {}, internal.slug);
    const missing = await exception(caps, 404, {}, 'no_such_layer');
    assert.deepEqual([hidden.code, hidden.text], [missing.code, missing.text]);
    const res = await reader.client.get<string>(`/services/wfs/${internal.slug}?${caps}`);
    assert.equal(res.status, 200);
    assert.match(res.body, new RegExp(`<wfs:Name>wb:${internal.slug}</wfs:Name>`));
    const gf = `SERVICE=WFS&VERSION=1.1.0&REQUEST=GetFeature&TYPENAME=wb:${internal.slug}`;
    const anonymous = await exception(gf, 404, {}, internal.slug);
    assert.equal(anonymous.report['@_version'], '1.0.0');

    // Desktop GIS with an API key in the address: the capabilities keep it in the operations' addresses.
    expectStatus(await f.admin.patch(userUri(reader.id), { user_permissions: ['access_connect'] }), 200);
    const { key } = expectStatus(await f.admin.post('/api/v1/apikey/', { user: userUri(reader.id), realms: ['layer'] }), 201);
    const url = `${f.t.url}/services/wfs/${internal.slug}`;
    const capabilities = await wfsGet(url, `apikey=${key}&${caps}`);
    assert.equal(capabilities.status, 200);
    assert.ok(capabilities.text.includes(`xlink:href="${url}?apikey=${key}&amp;"`), capabilities.text);
    const { stdout } = await run('ogrinfo', ['-ro', '-so', `WFS:${url}?apikey=${key}`, `wb:${internal.slug}`]);
    assert.match(stdout, /Feature Count: 400/);
  });

  it('refuses sorting, which it does not offer', async () => {
    const e = await exception(`SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&SORTBY=id`);
    assert.deepEqual([e.code, e.locator], ['OperationNotSupported', 'sortBy']);
  });
});
