import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, treesGeojson, type ServicesFixture } from './services-support';
import { run, sameFeatures, wfsGet, type Collection } from './services-wfs-kit';

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

/** PyQGIS (Debian python3-qgis, headless): the layer through QGIS's WFS provider. */
const PYQGIS = `
import json, os, sys
from qgis.core import QgsApplication, QgsVectorLayer
app = QgsApplication([], False)
app.initQgis()
uri = "url='%s' typename='%s' version='%s' srsname='EPSG:4326' restrictToRequestBBOX='0'" % (sys.argv[1], sys.argv[2], sys.argv[3])
layer = QgsVectorLayer(uri, "wfs", "WFS")
out = {"valid": layer.isValid(), "fields": [[f.name(), f.typeName()] for f in layer.fields()], "features": []}
for feat in layer.getFeatures():
    p = feat.geometry().asPoint()
    out["features"].append({"type": "Feature", "properties": {"id": feat["id"], "art": feat["art"], "hoehe": feat["hoehe"]},
                            "geometry": {"type": "Point", "coordinates": [p.x(), p.y()]}})
print(json.dumps(out), flush=True)
# Leaving without exitQgis: tearing down the provider's threads crashes the headless QGIS 3.22.
os._exit(0)
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

  const get = (query: string, headers: Record<string, string> = {}) => wfsGet(wfs, query, headers);
  const sameAsSource = (fc: Collection, expected = source.features) => sameFeatures(fc, expected);
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

  it('is read by QGIS (PyQGIS 3.22, WFS provider) in 2.0.0 and 1.1.0: every feature, attribute types, coordinates', async () => {
    for (const version of ['2.0.0', '1.1.0']) {
      const { stdout } = await run('/usr/bin/python3', ['-c', PYQGIS, wfs, `wb:${layer.slug}`, version], {
        QT_QPA_PLATFORM: 'offscreen',
      });
      const got = JSON.parse(stdout.trim().split('\n').pop()!) as {
        valid: boolean;
        fields: string[][];
        features: Collection['features'];
      };
      assert.equal(got.valid, true);
      const fields = Object.fromEntries(got.fields);
      assert.equal(fields.id, 'xsd:int');
      assert.equal(fields.art, 'xsd:string');
      assert.equal(fields.hoehe, 'xsd:double');
      sameAsSource({ type: 'FeatureCollection', features: got.features });
    }
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
});
