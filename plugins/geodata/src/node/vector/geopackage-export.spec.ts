import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import type { FrameItems, FunctionInputs } from '@werkbank/sdk/node';
import { geopackageExport } from './geopackage-export';
import { geopackageImport } from './geopackage-import';
import { featuresOf, fileItem, fixtureFiles, one, rejectsWith } from './vector-test-helpers';

const FEATURES = [
  {
    type: 'Feature',
    id: 10,
    geometry: { type: 'Point', coordinates: [13.377704, 52.516275] },
    properties: { name: 'Brandenburger Tor', höhe: 26, offen: true, fläche: 0.5 },
  },
  {
    type: 'Feature',
    id: 11,
    geometry: { type: 'Point', coordinates: [9.99247, 53.550556, 6] },
    properties: { name: 'Rathaus Hamburg', höhe: 112.5, offen: false, tags: ['a', 'b'] },
  },
  { type: 'Feature', id: 12, geometry: null, properties: { name: 'Ohne Ort', höhe: null } },
];

const items = (features: unknown[]): FrameItems => features.map((feature) => ({ feature }));

/** Exports `features` and returns the stored file's bytes with the run context. */
async function exported(features: unknown[], params: FunctionInputs = {}, ctx: FakeRunContext = fakeRunContext()) {
  const out = await geopackageExport.run({ features: items(features), ...params }, ctx);
  const [file] = out.file;
  const stored = ctx.files.get(String(file.stored_blob))!;
  return { file, stored, ctx };
}

describe('geopackage.export', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'gpkg-export-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a GeoPackage 1.3 that GDAL’s ogrinfo reads: application_id GPKG, the layer, its type, CRS and feature count', async () => {
    const { file, stored } = await exported(FEATURES);
    assert.deepEqual([file.value, file.mime_type], ['features.gpkg', 'application/geopackage+sqlite3']);
    assert.equal(stored.bytes.subarray(68, 72).toString('latin1'), 'GPKG');
    assert.equal(stored.bytes.readUInt32BE(60), 10300);
    const target = path.join(dir, 'features.gpkg');
    writeFileSync(target, stored.bytes);
    const info = execFileSync('ogrinfo', ['-so', target, 'features'], { encoding: 'utf8' });
    assert.match(info, /Layer name: features/);
    assert.match(info, /Geometry: 3D Point/);
    assert.match(info, /Feature Count: 3/);
    assert.match(info, /ID\["EPSG",4326\]/);
    assert.match(info, /höhe: Real/);
    assert.match(info, /offen: Integer\(Boolean\)/);
    // GDAL's GeoPackage validator (Debian python3-gdal) checks the file against the standard's requirements.
    execFileSync('/usr/bin/python3', ['-m', 'osgeo_utils.samples.validate_gpkg', target]);
    const full = execFileSync('ogrinfo', ['-q', target, 'features', '-fid', '11'], { encoding: 'utf8' });
    assert.match(full, /name \(String\) = Rathaus Hamburg/);
    assert.match(full, /POINT Z \(9\.99247 53\.550556 6\)/);
  });

  it('reads back equal through geopackage.import (ids, geometries, typed properties, lists as JSON text)', async () => {
    const { stored } = await exported(FEATURES, { layer: one('Orte Ü'), name: one('orte.gpkg') });
    assert.equal(stored.name, 'orte.gpkg');
    const back = featuresOf(
      await geopackageImport(fixtureFiles({ 'orte.gpkg': stored.bytes })).run({ file: fileItem('orte.gpkg') }, fakeRunContext()),
    );
    assert.deepEqual(back, [
      {
        type: 'Feature',
        id: 10,
        geometry: { type: 'Point', coordinates: [13.377704, 52.516275, 0] },
        properties: { name: 'Brandenburger Tor', höhe: 26, offen: true, fläche: 0.5, tags: null },
      },
      {
        type: 'Feature',
        id: 11,
        geometry: FEATURES[1].geometry,
        properties: { name: 'Rathaus Hamburg', höhe: 112.5, offen: false, fläche: null, tags: '["a","b"]' },
      },
      {
        type: 'Feature',
        id: 12,
        geometry: null,
        properties: { name: 'Ohne Ort', höhe: null, offen: null, fläche: null, tags: null },
      },
    ]);
  });

  it('writes mixed geometry types as GEOMETRY and renames properties called fid or geom', async () => {
    const mixed = [
      { type: 'Feature', id: 'a', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { fid: 'x', geom: 1 } },
      {
        type: 'Feature',
        id: 'a',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
        properties: {},
      },
    ];
    const { stored } = await exported(mixed);
    const target = path.join(dir, 'mixed.gpkg');
    writeFileSync(target, stored.bytes);
    const info = execFileSync('ogrinfo', ['-so', target, 'features'], { encoding: 'utf8' });
    assert.match(info, /Geometry: Unknown \(any\)/);
    assert.match(info, /fid_1: String/);
    assert.match(info, /geom_1: Integer/);
    const back = featuresOf(
      await geopackageImport(fixtureFiles({ 'm.gpkg': stored.bytes })).run({ file: fileItem('m.gpkg') }, fakeRunContext()),
    );
    // Ids that are not distinct positive integers are replaced by row numbers.
    assert.deepEqual(
      back.map((f) => [f.id, f.geometry!.type, f.properties]),
      [
        [1, 'Point', { fid_1: 'x', geom_1: 1 }],
        [2, 'Polygon', { fid_1: null, geom_1: null }],
      ],
    );
  });

  it('fails naming a broken feature, and refuses a layer name GeoPackage reserves', async () => {
    await rejectsWith(
      exported([FEATURES[0], { type: 'Feature', geometry: { type: 'Point', coordinates: ['x'] } }]),
      'coordinates_invalid',
      {
        index: 1,
        source: 'features',
      },
    );
    await rejectsWith(exported(FEATURES, { layer: one('gpkg_contents') }), 'invalid_parameter', { port: 'layer' });
  });

  it('writes an empty layer for no features, and stops when the run is aborted', async () => {
    const { stored } = await exported([]);
    const target = path.join(dir, 'empty.gpkg');
    writeFileSync(target, stored.bytes);
    assert.match(execFileSync('ogrinfo', ['-so', target, 'features'], { encoding: 'utf8' }), /Feature Count: 0/);
    const ctx = fakeRunContext();
    ctx.controller.abort(new Error('stopped'));
    await assert.rejects(exported(FEATURES.concat(Array(5000).fill(FEATURES[0])), {}, ctx), /stopped/);
  });
});
