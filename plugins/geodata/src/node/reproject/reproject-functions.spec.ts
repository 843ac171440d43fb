import assert from 'node:assert/strict';
import type { FrameItems, FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { CHUNK, REPROJECT_FUNCTIONS } from './reproject-functions';
import { epsgCode } from './crs-definitions';
import { projDataDirs, resolveCrs } from './crs-resolver';
import { CrsTransform } from './crs-transform';
import { featureReprojector } from './reproject-geometry';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { describeReasons } from '../failure-test-reasons';
import { failure } from './reproject-errors';
import { near } from '../vector/vector-test-helpers';

type TestContext = FakeRunContext;
const context = (): TestContext => fakeRunContext();

const reproject = REPROJECT_FUNCTIONS.find((f) => f.id === 'geometry.reproject')!;
const feature = (geometry: unknown, properties: Record<string, unknown> = {}) => ({
  feature: { type: 'Feature', geometry, properties },
});
const text = (value: string) => [{ value }];
const run = (inputs: FunctionInputs, ctx = context()) => reproject.run(inputs, ctx);
const geometries = async (inputs: FunctionInputs) =>
  (await run(inputs)).features.map((i) => (i.feature as { geometry: unknown }).geometry);

/** Berlin in EPSG:25832, as cs2cs computes it. */
const BERLIN_UTM32: [number, number] = [798812.803, 5827999.9];

describe('geodata reproject: geometry.reproject', () => {
  it('transforms every geometry type, nested collections included, keeping properties, ids and heights', async () => {
    const p = [13.405, 52.52];
    const line = [p, [13.4, 52.5]];
    const ring = [p, [13.4, 52.5], [13.41, 52.5], p];
    const input: FrameItems = [
      {
        feature: {
          type: 'Feature',
          id: 'b',
          geometry: { type: 'Point', coordinates: [13.405, 52.52, 34.5] },
          properties: { name: 'Berlin' },
        },
      },
      feature({ type: 'MultiPoint', coordinates: line }),
      feature({ type: 'LineString', coordinates: line }),
      feature({ type: 'MultiLineString', coordinates: [line, line] }),
      feature({ type: 'Polygon', coordinates: [ring] }),
      feature({ type: 'MultiPolygon', coordinates: [[ring], [ring]] }),
      feature({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: p },
          { type: 'GeometryCollection', geometries: [{ type: 'LineString', coordinates: line }] },
        ],
      }),
      feature(null, { empty: true }),
    ];
    const out = (await run({ features: input, to: text('EPSG:25832') })).features;
    assert.equal(out.length, input.length);
    const first = out[0].feature as { id: string; properties: unknown; geometry: { coordinates: number[] } };
    assert.equal(first.id, 'b');
    assert.deepEqual(first.properties, { name: 'Berlin' });
    near(first.geometry.coordinates.slice(0, 2), BERLIN_UTM32, 0.001);
    assert.equal(first.geometry.coordinates[2], 34.5, 'heights are kept');
    const g = out.map((i) => (i.feature as { geometry: any }).geometry);
    near(g[1].coordinates[0], BERLIN_UTM32, 0.001);
    near(g[3].coordinates[1][0], BERLIN_UTM32, 0.001);
    near(g[4].coordinates[0][3], BERLIN_UTM32, 0.001);
    near(g[5].coordinates[1][0][0], BERLIN_UTM32, 0.001);
    near(g[6].geometries[0].coordinates, BERLIN_UTM32, 0.001);
    assert.equal(g[6].geometries[1].type, 'GeometryCollection');
    near(g[6].geometries[1].geometries[0].coordinates[0], BERLIN_UTM32, 0.001);
    assert.equal(g[7], null);
    assert.deepEqual((out[7].feature as { properties: unknown }).properties, { empty: true });
  });

  it('takes from and to as EPSG codes, URNs or plain numbers; both default to EPSG:4326', async () => {
    const utm = feature({ type: 'Point', coordinates: BERLIN_UTM32 });
    const [back] = await geometries({ features: [utm], from: text('urn:ogc:def:crs:EPSG::25832') });
    near((back as { coordinates: number[] }).coordinates, [13.405, 52.52], 1e-8);
    const [same] = await geometries({ features: [feature({ type: 'Point', coordinates: [7, 50] })] });
    assert.deepEqual(same, { type: 'Point', coordinates: [7, 50] });
    assert.equal(epsgCode('epsg:31467'), 31467);
    assert.equal(epsgCode('31467'), 31467);
    assert.equal(epsgCode('http://www.opengis.net/def/crs/EPSG/0/3035'), 3035);
    assert.equal(epsgCode('CRS84'), 4326);
    assert.equal(epsgCode('EPSG:31467; rm -rf /'), undefined);
  });

  it('reprojects from the CRS the features carry, labels the result, and refuses a from they are not in (issue 14 item 3)', async () => {
    const wgs84 = feature({ type: 'Point', coordinates: [13.405, 52.52] });
    const [utm] = (await run({ features: [wgs84], to: text('EPSG:25832') })).features;
    const labelled = utm.feature as { crs: { properties: { name: string } }; geometry: { coordinates: number[] } };
    assert.equal(labelled.crs.properties.name, 'urn:ogc:def:crs:EPSG::25832');
    near(labelled.geometry.coordinates, BERLIN_UTM32, 0.01);
    // From its label back to WGS 84 without naming from; the label goes (RFC 7946 has none).
    const [back] = (await run({ features: [utm] })).features;
    assert.equal('crs' in (back.feature as object), false);
    near((back.feature as { geometry: { coordinates: number[] } }).geometry.coordinates, [13.405, 52.52], 1e-8);
    await assert.rejects(
      run({ features: [wgs84], from: text('EPSG:25832') }),
      (e: { code?: string; params?: Record<string, unknown> }) => {
        assert.equal(e.code, 'crs_not_source');
        assert.deepEqual(e.params, { from: 'EPSG:25832', crs: 'EPSG:4326' });
        return true;
      },
    );
    await assert.rejects(run({ features: [utm], from: text('EPSG:31467') }), /crs_not_source|EPSG:31467/);
    await assert.rejects(run({ features: [utm, wgs84] }), (e: { code?: string }) => e.code === 'crs_mixed');
    assert.deepEqual((await run({ features: [], from: text('EPSG:25832') })).features, []);
  });

  it('recomputes a bbox of the feature and of its geometry in the new CRS', async () => {
    const input = [
      {
        feature: {
          type: 'Feature',
          bbox: [13.4, 52.5, 13.405, 52.52],
          geometry: {
            type: 'LineString',
            bbox: [13.4, 52.5, 13.405, 52.52],
            coordinates: [
              [13.405, 52.52],
              [13.4, 52.5],
            ],
          },
          properties: {},
        },
      },
    ];
    const [out] = (await run({ features: input, to: text('EPSG:25832') })).features;
    const f = out.feature as { bbox: number[]; geometry: { bbox: number[]; coordinates: number[][] } };
    const xs = f.geometry.coordinates.map((c) => c[0]);
    const ys = f.geometry.coordinates.map((c) => c[1]);
    assert.deepEqual(f.bbox, [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
    assert.deepEqual(f.geometry.bbox, f.bbox);
  });

  it('keeps the heights of a 3D bbox, recomputes the bbox of collections and drops the bbox of an empty geometry', async () => {
    const input = [
      {
        feature: {
          type: 'Feature',
          bbox: [13.4, 52.5, 10, 13.405, 52.52, 20],
          geometry: {
            type: 'GeometryCollection',
            bbox: [13.4, 52.5, 13.405, 52.52],
            geometries: [
              { type: 'Point', coordinates: [13.405, 52.52, 20] },
              { type: 'Point', coordinates: [13.4, 52.5, 10] },
            ],
          },
          properties: {},
        },
      },
      { feature: { type: 'Feature', bbox: [1, 2, 3, 4], geometry: null, properties: {} } },
      { feature: { type: 'Feature', geometry: { type: 'MultiPoint', bbox: [1, 2, 3, 4], coordinates: [] }, properties: {} } },
    ];
    const out = (await run({ features: input, to: text('EPSG:25832') })).features.map((i) => i.feature as any);
    const [a, b] = out[0].geometry.geometries.map((g: { coordinates: number[] }) => g.coordinates);
    const box = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
    assert.deepEqual(out[0].bbox, [box[0], box[1], 10, box[2], box[3], 20]);
    assert.deepEqual(out[0].geometry.bbox, box);
    assert.equal('bbox' in out[1], false);
    assert.equal('bbox' in out[2].geometry, false);
  });

  it('refuses geometries that are no objects and collections without geometries, naming the feature', async () => {
    const cases: Array<[unknown, string]> = [
      ['POINT (7 50)', 'string'],
      [[7, 50], 'object'],
      [{ type: 'GeometryCollection' }, 'GeometryCollection'],
      [{ coordinates: [7, 50] }, 'undefined'],
    ];
    for (const [geometry, type] of cases) {
      await assert.rejects(run({ features: [feature({ type: 'Point', coordinates: [7, 50] }), feature(geometry)] }), (e: any) => {
        assert.deepEqual([e.code, e.params], ['geometry_invalid', { index: 1, type }]);
        return true;
      });
    }
  });

  it('takes blank from and to as not given, refuses them when they are no text, and logs the two CRSs', async () => {
    const ctx = context();
    const out = await run({ features: [feature({ type: 'Point', coordinates: [7, 50] })], from: text(' '), to: text(' ') }, ctx);
    assert.deepEqual((out.features[0].feature as { geometry: unknown }).geometry, { type: 'Point', coordinates: [7, 50] });
    assert.deepEqual(ctx.logs, ['EPSG:4326 → EPSG:4326']);
    const padded = context();
    const utm = await run({ features: [], from: text(' EPSG:4326 '), to: text(' EPSG:25832 ') }, padded);
    assert.deepEqual([utm.features, padded.logs], [[], ['EPSG:4326 → EPSG:25832']]);
    for (const port of ['from', 'to']) {
      await assert.rejects(run({ features: [], [port]: [{ value: 25832 }] }), (e: any) => {
        assert.deepEqual([e.code, e.params], ['parameter_not_text', { port }]);
        return true;
      });
    }
  });

  it('takes from for unlabelled features whose positions are no degrees, and confirms the CRS of labelled ones', async () => {
    const [wgs84] = await geometries({
      features: [feature({ type: 'Point', coordinates: BERLIN_UTM32 })],
      from: text('EPSG:25832'),
    });
    near((wgs84 as { coordinates: number[] }).coordinates, [13.405, 52.52], 1e-8);
    const utm = (await run({ features: [feature({ type: 'Point', coordinates: [13.405, 52.52] })], to: text('EPSG:25832') }))
      .features;
    const [same] = await geometries({ features: utm, from: text('EPSG:25832') });
    near((same as { coordinates: number[] }).coordinates, [13.405, 52.52], 1e-8);
    // A labelled feature with positions beyond degrees is still in the CRS of its label.
    const labelledFar = { feature: { ...(utm[0].feature as object), crs: { type: 'name', properties: { name: 'EPSG:4326' } } } };
    await assert.rejects(run({ features: [labelledFar], from: text('EPSG:25832') }), { code: 'crs_not_source' });
  });

  it('describes itself in German and English: names, the built-in CRSs, its ports and their defaults', () => {
    assert.deepEqual([reproject.version, reproject.verbose_name], ['2', { de: 'Umprojizieren', en: 'Reproject' }]);
    for (const lang of ['de', 'en'] as const) {
      const doc = reproject.doc![lang];
      for (const part of [
        'EPSG:4326, 4258, 3857, 25832, 25833, 3035',
        '31466–31469',
        'projinfo',
        'urn:ogc:def:crs:EPSG::25832',
        'CRS84',
      ])
        assert.ok(doc.includes(part), `${lang}: ${part}`);
    }
    assert.match(reproject.doc!.de, /^Rechnet die Geometrien .* abgelehnt\. Achsen in GeoJSON-Reihenfolge/);
    assert.match(reproject.doc!.en, /^Transforms the geometries .* refused\. Axes in GeoJSON order/);
    assert.deepEqual(reproject.inputs, [
      { name: 'features', content_type: 'feature' },
      { name: 'from', content_type: 'string', is_optional: true, default_value: { value: '' } },
      { name: 'to', content_type: 'string', is_optional: true, default_value: { value: 'EPSG:4326' } },
    ]);
  });

  it('keeps positions exactly as they are between the same CRS, and reuses a resolved CRS', async () => {
    const utm = await resolveCrs('EPSG:25832');
    assert.equal(resolveCrs('EPSG:25832'), resolveCrs('25832'));
    const same = new CrsTransform(utm, await resolveCrs('urn:ogc:def:crs:EPSG::25832'));
    assert.deepEqual(same.position(500000.123456789, 5500000.987654321), [500000.123456789, 5500000.987654321]);
  });

  it('looks for datum grids where PROJ_DATA and PROJ_LIB say first, then in the usual folders', () => {
    const saved = [process.env.PROJ_DATA, process.env.PROJ_LIB];
    try {
      process.env.PROJ_DATA = ['/opt/a', '/opt/b'].join(':');
      process.env.PROJ_LIB = '/opt/c';
      assert.deepEqual(projDataDirs(), ['/opt/a', '/opt/b', '/opt/c', '/usr/share/proj', '/usr/local/share/proj']);
      delete process.env.PROJ_DATA;
      delete process.env.PROJ_LIB;
      assert.deepEqual(projDataDirs(), ['/usr/share/proj', '/usr/local/share/proj']);
    } finally {
      for (const [i, key] of (['PROJ_DATA', 'PROJ_LIB'] as const).entries()) {
        if (saved[i] === undefined) delete process.env[key];
        else process.env[key] = saved[i];
      }
    }
  });

  it('takes a feature without a geometry member as one without geometry', async () => {
    const out = await run({ features: [{ feature: { type: 'Feature', properties: { a: 1 } } }], to: text('EPSG:25832') });
    assert.equal((out.features[0].feature as { geometry: unknown }).geometry, null);
  });

  it('refuses positions with texts or infinite numbers, a latitude beyond 90°, and keeps 180° as a longitude', async () => {
    const refused = async (coordinates: unknown[], code: string) =>
      assert.rejects(run({ features: [feature({ type: 'Point', coordinates })], to: text('EPSG:3857') }), (e: any) => {
        assert.equal(e.code, code, JSON.stringify(coordinates));
        return true;
      });
    await refused(['7', 50], 'coordinates_invalid');
    await refused([Infinity, 50], 'coordinates_invalid');
    await refused([7, 90.5], 'out_of_range');
    await refused([180.5, 0], 'out_of_range');
    const [edge] = await geometries({ features: [feature({ type: 'Point', coordinates: [180, 0] })], to: text('EPSG:3857') });
    near((edge as { coordinates: number[] }).coordinates, [20037508.34, 0], 0.01);
    // A long position is shown cut to 80 characters.
    const long = [1, 'x', ...Array.from({ length: 40 }, (_, i) => i + 0.123456)];
    await assert.rejects(run({ features: [feature({ type: 'Point', coordinates: long })] }), (e: any) => {
      assert.equal(e.params.position, JSON.stringify(long).slice(0, 80));
      return true;
    });
  });

  it('uses the BETA2007 grid for Gauss-Krüger inside Germany and the Helmert parameters outside it', async () => {
    const gk = await resolveCrs('EPSG:31467');
    assert.ok(gk.gridDefinition, 'proj-data with BETA2007.gsb is installed here');
    const grid = new CrsTransform(gk, await resolveCrs('EPSG:4326'));
    const helmert = new CrsTransform({ ...gk, gridDefinition: undefined, gridBounds: undefined }, await resolveCrs('EPSG:4326'));
    // Frankfurt: the grid and Helmert differ by decimetres; the grid is what cs2cs uses.
    const frankfurt: [number, number] = [3477000, 5553000];
    const shift = Math.abs(grid.position(...frankfurt)[0] - helmert.position(...frankfurt)[0]);
    assert.ok(shift > 1e-7, `the grid changes the result (${shift}°)`);
    // Paris, far west of the grid, and places north, south and east of it: Helmert, as cs2cs falls back to it.
    const paris: [number, number] = [3000000, 5420000];
    assert.deepEqual(grid.position(...paris), helmert.position(...paris));
    for (const [lon, lat] of [
      [9, 57.5],
      [9, 45.5],
      [18.5, 51],
    ]) {
      const outside = new CrsTransform(await resolveCrs('EPSG:4326'), gk).position(lon, lat);
      assert.ok(Number.isFinite(outside[0]), `${lon} ${lat}`);
      assert.deepEqual(grid.position(...outside), helmert.position(...outside), `${lon} ${lat}`);
    }
    // The grid's outer nodes in degrees: gdalinfo reads BETA2007.gsb's corners as 5.41667 E 55.35 N and
    // 15.75 E 46.95 N, half a cell (1/6° by 0.1°) beyond them.
    near(gk.gridBounds!, [5.41667 + 1 / 12, 46.95 + 0.05, 15.75 - 1 / 12, 55.35 - 0.05], 1e-5);
  });

  it('looks up codes that are not built in in the installed PROJ database, and refuses unknown ones', async () => {
    const [swiss] = await geometries({
      features: [feature({ type: 'Point', coordinates: [7.4386, 46.9511] })],
      to: text('EPSG:2056'),
    });
    near((swiss as { coordinates: number[] }).coordinates, [2_600_000, 1_200_000], 1000);
    await assert.rejects(
      run({ features: [], to: text('EPSG:999999') }),
      (e: any) => e.code === 'crs_unknown' && e.params.crs === 'EPSG:999999',
    );
    await assert.rejects(
      run({ features: [], from: text('UTM 32') }),
      (e: any) => e.code === 'crs_invalid' && e.params.crs === 'UTM 32',
    );
    // DHHN92 heights: a vertical CRS has no horizontal definition.
    await assert.rejects(run({ features: [], to: text('EPSG:5783') }), { code: 'crs_unsupported' });
    await assert.rejects(run({ features: [], to: [{ value: 'EPSG:4326' }, { value: 'EPSG:3857' }] }), {
      code: 'parameter_single',
    });
  });

  it('says so when a code is not built in and projinfo is not installed', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await assert.rejects(
        run({ features: [], to: text('EPSG:2154') }),
        (e: any) => e.code === 'crs_lookup_unavailable' && e.params.builtIn.includes('EPSG:25832'),
      );
      // Built-in codes need nothing installed.
      await run({ features: [], to: text('EPSG:31468') });
    } finally {
      process.env.PATH = path;
    }
    // A failed look-up is not cached: with projinfo back, the code resolves.
    assert.equal((await resolveCrs('EPSG:2154')).name, 'EPSG:2154');
  });

  it('fails naming the feature for projected coordinates declared as EPSG:4326, invalid positions and geometries', async () => {
    const good = feature({ type: 'Point', coordinates: [7, 50] });
    await assert.rejects(
      run({ features: [good, feature({ type: 'Point', coordinates: BERLIN_UTM32 })], to: text('EPSG:25832') }),
      (e: any) => e.code === 'out_of_range' && e.params.index === 1 && e.params.crs === 'EPSG:4326',
    );
    await assert.rejects(
      run({
        features: [
          good,
          good,
          feature({
            type: 'LineString',
            coordinates: [
              [7, 50],
              [7, 'x'],
            ],
          }),
        ],
        to: text('EPSG:25832'),
      }),
      (e: any) => e.code === 'coordinates_invalid' && e.params.index === 2 && e.params.position === '[7,"x"]',
    );
    await assert.rejects(
      run({ features: [feature({ type: 'Point', coordinates: [7] })] }),
      (e: any) => e.code === 'coordinates_invalid' && e.params.index === 0,
    );
    await assert.rejects(
      run({ features: [good, feature({ type: 'Polygon', coordinates: [7, 50] })] }),
      (e: any) => e.code === 'geometry_invalid' && e.params.index === 1 && e.params.type === 'Polygon',
    );
    await assert.rejects(
      run({ features: [feature({ type: 'Circle', coordinates: [7, 50] })] }),
      (e: any) => e.code === 'geometry_invalid' && e.params.type === 'Circle',
    );
    await assert.rejects(
      run({ features: [good, { value: 'text' }] }),
      (e: any) => e.code === 'feature_expected' && e.params.index === 1,
    );
    await assert.rejects(
      run({ features: [good, feature({ type: 'Point', coordinates: [0, 90] })], to: text('EPSG:3857') }),
      (e: any) => e.code === 'transform_failed' && e.params.index === 1 && e.params.to === 'EPSG:3857',
    );
  });

  it('reports progress on large inputs and stops when the run is aborted', async () => {
    const many = Array.from({ length: CHUNK * 3 }, (_, i) => feature({ type: 'Point', coordinates: [7 + i / 10000, 50] }));
    const ctx = context();
    const out = await run({ features: many, to: text('EPSG:25832') }, ctx);
    assert.equal(out.features.length, many.length);
    assert.deepEqual(ctx.progresses, [0, 1 / 3, 2 / 3, 1]);
    const aborted = context();
    aborted.controller.abort(new Error('stopped'));
    await assert.rejects(run({ features: many, to: text('EPSG:25832') }, aborted), /stopped/);
    // Aborted while it runs: it stops at the next chunk, with no result.
    const later = context();
    later.progress = (f) => {
      later.progresses.push(f);
      if (f > 0) later.controller.abort(new Error('stopped later'));
    };
    await assert.rejects(run({ features: many, to: text('EPSG:25832') }, later), /stopped later/);
    assert.deepEqual(later.progresses, [0, 1 / 3]);
  });

  it('offers the same reprojection to other functions for plain GeoJSON features (vector import)', async () => {
    const toWgs84 = await featureReprojector('EPSG:25832', 'EPSG:4326');
    const out = toWgs84(
      { type: 'Feature', id: 3, geometry: { type: 'Point', coordinates: BERLIN_UTM32 }, properties: { a: 1 } },
      0,
    );
    assert.equal(out.id, 3);
    assert.deepEqual(out.properties, { a: 1 });
    near((out.geometry as { coordinates: number[] }).coordinates, [13.405, 52.52], 1e-8);
    assert.throws(
      () => toWgs84({ type: 'FeatureCollection' }, 4),
      (e: any) => e.code === 'feature_expected' && e.params.index === 4,
    );
    await assert.rejects(featureReprojector('EPSG:25832', 'nonsense'), { code: 'crs_invalid' });
  });
});

describeReasons('geodata-reproject', failure, en, de);
