import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { expectStatus, userUri } from '@werkbank/testing/node';
import type { Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';

/** GDAL and OWSLib call the server in this process: they must not block its event loop. */
const run = async (cmd: string, args: string[], env: Record<string, string> = {}) =>
  await promisify(execFile)(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });

interface Feature {
  type: string;
  id?: number | string;
  geometry: { type: string; coordinates: number[] };
  properties: Record<string, unknown>;
}
interface Collection {
  type: string;
  features: Feature[];
  numberMatched?: number;
  numberReturned?: number;
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: true, processEntities: false });

/** OWSLib's WebFeatureService (Debian python3-owslib) on the service: capabilities, schema and a GetFeature. */
const OWSLIB = `
import json, sys, warnings
warnings.simplefilter("ignore")
from owslib.wfs import WebFeatureService
wfs = WebFeatureService(sys.argv[1], version=sys.argv[2])
name = list(wfs.contents)[0]
ft = wfs.contents[name]
out = wfs.getfeature(typename=[name], maxfeatures=5, outputFormat=sys.argv[3] if len(sys.argv) > 3 else None)
body = out.read()
print(json.dumps({
  "version": wfs.version,
  "title": wfs.identification.title,
  "types": list(wfs.contents),
  "bbox": list(ft.boundingBoxWGS84),
  "crs": [c.getcode() for c in ft.crsOptions],
  "operations": [op.name for op in wfs.operations],
  "formats": ft.outputFormats if hasattr(ft, "outputFormats") else None,
  "schema": wfs.get_schema(name) if sys.argv[2] == "2.0.0" else None,
  "features": body.decode("utf8") if isinstance(body, bytes) else body,
}))
`;

/**
 * The WFS (issue 17, decision 0083): WFS 2.0.0 and 1.1.0 of a layer, read by GDAL's WFS driver and
 * OWSLib, compared with the GDAL-made fixture the layer's depot was filled from.
 */
describe('services: WFS 2.0.0 and 1.1.0 serve a layer to GDAL and OWSLib', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  let trees: Depot;
  let layer: Layer;
  let source: Collection;
  let wfs: string;

  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${wfs}?${query}`, { headers });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };
  /** The exception of an ExceptionReport answer, after checking its status. */
  const exception = async (query: string, status = 400, headers: Record<string, string> = {}, slug = layer.slug) => {
    const res = await fetch(`${f.t.url}/services/wfs/${slug}?${query}`, { headers });
    const text = await res.text();
    assert.equal(res.status, status, text);
    const report = xml.parse(text).ExceptionReport;
    assert.ok(report, text);
    const e = report.Exception;
    return { code: e['@_exceptionCode'], locator: e['@_locator'], text: String(e.ExceptionText), report };
  };
  /** ogr2ogr of the WFS layer into GeoJSON, read back. */
  const ogr = async (name: string, version: string, args: string[], env: Record<string, string> = {}) => {
    const out = join(dir, `${name}.geojson`);
    const { stderr } = await run(
      'ogr2ogr',
      ['-f', 'GeoJSON', '-lco', 'RFC7946=NO', '-lco', 'COORDINATE_PRECISION=9', out, `WFS:${wfs}?VERSION=${version}`, ...args],
      env,
    );
    return { fc: JSON.parse(readFileSync(out, 'utf8')) as Collection, stderr };
  };
  /** Each feature as in the fixture (by its id property): same properties, coordinates within 1e-7°. */
  const sameAsSource = (fc: Collection, expected = source.features) => {
    assert.equal(fc.features.length, expected.length);
    const byId = new Map(fc.features.map((x) => [x.properties.id, x]));
    for (const e of expected) {
      const got = byId.get(e.properties.id);
      assert.ok(got, `feature ${String(e.properties.id)}`);
      for (const [k, v] of Object.entries(e.properties)) assert.equal(got.properties[k], v, `${k} of ${String(e.properties.id)}`);
      assert.equal(got.geometry.type, 'Point');
      assert.ok(Math.abs(got.geometry.coordinates[0] - e.geometry.coordinates[0]) < 1e-7, JSON.stringify(got.geometry));
      assert.ok(Math.abs(got.geometry.coordinates[1] - e.geometry.coordinates[1]) < 1e-7, JSON.stringify(got.geometry));
    }
  };
  const where = (test: (p: Record<string, unknown>) => boolean) => source.features.filter((x) => test(x.properties));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-wfs-'));
    const path = treesGeojson(dir);
    source = JSON.parse(readFileSync(path, 'utf8')) as Collection;
    trees = await approvedDepot(f, path);
    layer = await servedLayer(f.admin, [trees], { description: 'Bäume & Sträucher <Köln>' });
    wfs = `${f.t.url}/services/wfs/${layer.slug}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const version of ['2.0.0', '1.1.0']) {
    describe(`WFS ${version} through GDAL`, () => {
      it('reads every feature with its attribute names and types and coordinates within 1e-7°', async () => {
        const { stdout: info, stderr } = await run(
          'ogrinfo',
          ['-ro', '-so', `WFS:${wfs}?VERSION=${version}`, `wb:${layer.slug}`],
          {
            CPL_DEBUG: 'ON',
          },
        );
        // GDAL speaks this version and counts with RESULTTYPE=hits.
        assert.match(
          stderr,
          new RegExp(
            `VERSION=${version.replace(/\./g, '\\.')}&SERVICE=WFS&REQUEST=GetFeature&TYPENAMES?=wb:${layer.slug}&RESULTTYPE=hits`,
          ),
          stderr,
        );
        assert.match(info, /Feature Count: 400/);
        assert.match(info, /Geometry: Point/);
        assert.match(info, /id: Integer /);
        assert.match(info, /art: String/);
        assert.match(info, /hoehe: Real/);
        const { fc } = await ogr(`all-${version}`, version, []);
        sameAsSource(fc);
      });

      it('reads the features in a bbox (-spat) and pages (PAGE_SIZE) through all of them', async () => {
        const { fc } = await ogr(`spat-${version}`, version, ['-spat', '6.795', '50.795', '6.845', '50.825']);
        // Columns 0–4 (6.80–6.84°) of rows 0–2 (50.80–50.82°).
        sameAsSource(
          fc,
          source.features.filter(
            ({
              geometry: {
                coordinates: [x, y],
              },
            }) => x > 6.795 && x < 6.845 && y > 50.795 && y < 50.825,
          ),
        );
        assert.equal(fc.features.length, 15);
        // GDAL 3.6 takes paging as configuration options (OGR_WFS_PAGING_ALLOWED, OGR_WFS_PAGE_SIZE).
        const paged = await ogr(`paged-${version}`, version, [], {
          CPL_DEBUG: 'ON',
          OGR_WFS_PAGING_ALLOWED: 'ON',
          OGR_WFS_PAGE_SIZE: '37',
        });
        sameAsSource(paged.fc);
        // WFS 1.1.0 has no paging.
        if (version === '2.0.0') assert.match(paged.stderr, /STARTINDEX=370&COUNT=37/i, 'GDAL read page by page');
      });

      it('turns -where into an FES filter the server applies', async () => {
        const { fc, stderr } = await ogr(`where-${version}`, version, ['-where', "art = 'Eiche' AND hoehe > 15"], {
          CPL_DEBUG: 'ON',
        });
        sameAsSource(
          fc,
          where((p) => p.art === 'Eiche' && (p.hoehe as number) > 15),
        );
        assert.match(stderr, /FILTER=/i, 'the filter went to the server');
        const like = await ogr(`like-${version}`, version, ['-where', "art LIKE 'Ei%' OR id IN (0, 2)"]);
        sameAsSource(
          like.fc,
          where((p) => p.art === 'Eiche' || p.id === 0 || p.id === 2),
        );
      });
    });
  }

  it('gives features in EPSG:25832 (srsName) as ogr2ogr -t_srs reprojects the fixture, within 1 mm', async () => {
    const expectedPath = join(dir, 'expected-25832.geojson');
    await run('ogr2ogr', [
      '-f',
      'GeoJSON',
      '-lco',
      'RFC7946=NO',
      '-lco',
      'COORDINATE_PRECISION=6',
      '-t_srs',
      'EPSG:25832',
      expectedPath,
      treesGeojson(dir),
    ]);
    const expected = JSON.parse(readFileSync(expectedPath, 'utf8')) as Collection;
    const close = (fc: Collection) => {
      assert.equal(fc.features.length, 400);
      const byId = new Map(fc.features.map((x) => [x.properties.id, x]));
      for (const e of expected.features) {
        const [x, y] = byId.get(e.properties.id)!.geometry.coordinates;
        assert.ok(
          Math.abs(x - e.geometry.coordinates[0]) < 0.001 && Math.abs(y - e.geometry.coordinates[1]) < 0.001,
          `${x} ${y}`,
        );
      }
    };
    // The server reprojects (srsName), GDAL's GML driver reads the answer.
    for (const [version, srs] of [
      ['2.0.0', 'urn:ogc:def:crs:EPSG::25832'],
      ['1.1.0', 'EPSG:25832'],
    ]) {
      const gml = await get(`SERVICE=WFS&VERSION=${version}&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&SRSNAME=${srs}`);
      assert.equal(gml.status, 200, gml.text);
      assert.match(gml.text, /srsName="(urn:ogc:def:crs:)?EPSG:+25832"/);
      const file = join(dir, `srs-${version}.gml`);
      writeFileSync(file, gml.text);
      const out = join(dir, `srs-${version}.geojson`);
      await run('ogr2ogr', ['-f', 'GeoJSON', '-lco', 'RFC7946=NO', out, file, '-oo', 'SRSNAME_FORMAT=OGC_URN']);
      close(JSON.parse(readFileSync(out, 'utf8')) as Collection);
    }
    // GeoJSON in EPSG:25832, x before y.
    const json = JSON.parse(
      (
        await get(
          `SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&SRSNAME=EPSG:25832&OUTPUTFORMAT=application/json`,
        )
      ).text,
    ) as Collection;
    close(json);
    // GDAL reprojecting what the WFS gives in EPSG:4326.
    const { fc } = await ogr('t_srs', '2.0.0', ['-t_srs', 'EPSG:25832']);
    close(fc);
  });

  it('writes EPSG:4326 latitude first for the URN (WFS 2.0) and longitude first for EPSG:4326', async () => {
    const first = source.features[0].geometry.coordinates;
    const urn = await get(`SERVICE=WFS&VERSION=2.0.0&REQUEST=GetFeature&TYPENAMES=wb:${layer.slug}&COUNT=1`);
    assert.match(urn.type, /application\/gml\+xml; version=3\.2/);
    assert.ok(urn.text.includes(`<gml:pos srsDimension="2">${first[1]} ${first[0]}</gml:pos>`), urn.text);
    assert.match(urn.text, /numberReturned="1"/);
    const plain = await get(
      `SERVICE=WFS&VERSION=1.1.0&REQUEST=GetFeature&TYPENAME=wb:${layer.slug}&MAXFEATURES=1&SRSNAME=EPSG:4326`,
    );
    assert.ok(plain.text.includes(`<gml:pos srsDimension="2">${first[0]} ${first[1]}</gml:pos>`), plain.text);
  });

  it('is read by OWSLib 2.0.0 and 1.1.0: capabilities, schema and features', async () => {
    for (const version of ['2.0.0', '1.1.0']) {
      const { stdout } = await run('/usr/bin/python3', ['-c', OWSLIB, wfs, version]);
      const got = JSON.parse(stdout) as Record<string, unknown>;
      assert.equal(got.version, version);
      assert.equal(got.title, layer.name);
      assert.deepEqual(got.types, [`wb:${layer.slug}`]);
      // The layer's bbox, or the features' extent when the layer has none.
      assert.deepEqual((got.bbox as number[]).slice(0, 4), layer.bbox ?? [6.8, 50.8, 6.99, 50.99]);
      assert.ok((got.crs as string[]).length === 8, JSON.stringify(got.crs));
      const operations = got.operations as string[];
      for (const op of ['GetCapabilities', 'DescribeFeatureType', 'GetFeature']) assert.ok(operations.includes(op), op);
      const members = (got.features as string).match(/gml:id="/g) ?? [];
      assert.ok(members.length >= 5, got.features as string);
      if (version === '2.0.0') {
        const schema = got.schema as { properties: Record<string, string>; geometry: string };
        assert.deepEqual(schema.properties, { id: 'int', art: 'string', hoehe: 'double' });
        assert.equal(schema.geometry, 'Point');
      }
    }
  });

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
    const beyond = await page(1000, 10);
    assert.equal(beyond.features.length, 0);
    assert.equal(beyond.numberReturned, 0);
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
    expectStatus(await f.admin.get(`/api/v1/layer/${internal.id}/`), 200);
  });
});
