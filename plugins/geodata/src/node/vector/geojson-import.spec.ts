import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { ApiError, type FrameItems, type FunctionInputs } from '@werkbank/sdk/node';
import { fakeRunContext, type FakeRunContext } from '@werkbank/testing/node';
import { geojsonImport } from './geojson-import';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** A FileAccess over in-memory files keyed by their download_url; others are refused like the server does. */
function fakeFiles(files: Record<string, () => Readable>): FileAccess {
  return {
    open: async (_user, file) => {
      const open = files[String(file.download_url)];
      if (!open) throw ApiError.notFound();
      return { stream: open(), size: 0, mime_type: 'application/geo+json', name: String(file.value) };
    },
  };
}

const fileDatum = (name: string) => ({ value: name, size: 1, mime_type: 'application/geo+json', download_url: `/files/${name}` });
const one = (value: unknown): FrameItems => [{ value }];
const featuresOf = (out: Record<string, FrameItems>) => out.features.map((f) => f.feature as Record<string, unknown>);

async function importText(text: string, params: FunctionInputs = {}, ctx: FakeRunContext = fakeRunContext()) {
  return featuresOf(await geojsonImport(fakeFiles({})).run({ text: one(text), ...params }, ctx));
}

const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

const point = (x: number, y: number) => ({ type: 'Point', coordinates: [x, y] });

describe('geojson.import', () => {
  it('reads the features of a FeatureCollection with ids, properties and null geometry', async () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 7, geometry: point(13.4, 52.5), properties: { name: 'Haus', height: 12 } },
        { type: 'Feature', geometry: null, properties: null },
        {
          type: 'Feature',
          geometry: {
            type: 'GeometryCollection',
            geometries: [
              point(1, 2),
              {
                type: 'LineString',
                coordinates: [
                  [0, 0],
                  [1, 1],
                ],
              },
            ],
          },
          properties: { tags: ['a', 'b'], nested: { x: true } },
        },
      ],
    });
    assert.deepEqual(await importText(text), [
      { type: 'Feature', id: 7, geometry: point(13.4, 52.5), properties: { name: 'Haus', height: 12 } },
      { type: 'Feature', geometry: null, properties: {} },
      {
        type: 'Feature',
        geometry: {
          type: 'GeometryCollection',
          geometries: [
            point(1, 2),
            {
              type: 'LineString',
              coordinates: [
                [0, 0],
                [1, 1],
              ],
            },
          ],
        },
        properties: { tags: ['a', 'b'], nested: { x: true } },
      },
    ]);
  });

  it('reads a single Feature and a bare geometry as one feature each, and an empty collection as none', async () => {
    assert.deepEqual(
      await importText('{"properties":{"a":"ü"},"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,3]}}'),
      [{ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2, 3] }, properties: { a: 'ü' } }],
    );
    assert.deepEqual(await importText('{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}'), [
      {
        type: 'Feature',
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
    ]);
    assert.deepEqual(await importText('{"type":"FeatureCollection","features":[]}'), []);
  });

  it('streams a FeatureCollection of 100,000 features from a file, in order, with progress to 1', async () => {
    const n = 100_000;
    function* chunks() {
      yield Buffer.from('\uFEFF{"type":"FeatureCollection","name":"viele",\n"features":[\n');
      for (let i = 0; i < n; i += 1000) {
        const part: string[] = [];
        for (let j = i; j < i + 1000; j++) {
          part.push(
            JSON.stringify({ type: 'Feature', geometry: point(j / 1000, -j / 1000), properties: { i: j, name: `f${j}` } }),
          );
        }
        yield Buffer.from(part.join(',\n') + (i + 1000 < n ? ',\n' : '\n'));
      }
      yield Buffer.from(']}\n');
    }
    const fn = geojsonImport(fakeFiles({ '/files/many.geojson': () => Readable.from(chunks()) }));
    const ctx = fakeRunContext();
    const out = featuresOf(await fn.run({ file: [fileDatum('many.geojson')] }, ctx));
    assert.equal(out.length, n);
    assert.deepEqual(out[0], { type: 'Feature', geometry: point(0, 0), properties: { i: 0, name: 'f0' } });
    assert.deepEqual(out[54_321], {
      type: 'Feature',
      geometry: point(54.321, -54.321),
      properties: { i: 54_321, name: 'f54321' },
    });
    assert.ok(out.every((f, i) => (f.properties as { i: number }).i === i));
    assert.equal(ctx.progresses.at(-1), 1);
  });

  it('names line and column of broken JSON, also when the break lies in a later chunk of a file', async () => {
    await rejectsWith(
      importText('{"type": "FeatureCollection",\n  "features": [\n    {"type": "Feature" "geometry": null}]}'),
      'invalid_json',
      {
        line: 3,
        column: 24,
        source: 'text[0]',
      },
    );
    await rejectsWith(importText('{"type":"FeatureCollection","features":['), 'invalid_json', { line: 1 });
    const chunks = [
      '{"type":"FeatureCollection",\n"features":[\n',
      '{"type":"Feature","geometry":null,"properties":{}},\n{"type":',
      '"Feature","geometry":nul}\n]}',
    ];
    const fn = geojsonImport(fakeFiles({ '/files/b.geojson': () => Readable.from(chunks.map((c) => Buffer.from(c))) }));
    await rejectsWith(fn.run({ file: [fileDatum('b.geojson')] }, fakeRunContext()), 'invalid_json', {
      line: 4,
      column: 30,
      source: 'b.geojson',
    });
  });

  it('names the index of a feature that is no Feature or has a broken geometry', async () => {
    const collection = (...features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features });
    const ok = { type: 'Feature', geometry: point(1, 2), properties: {} };
    await rejectsWith(importText(collection(ok, ok, point(1, 2))), 'feature_invalid', { index: 2, type: 'Point' });
    await rejectsWith(
      importText(collection(ok, { type: 'Feature', geometry: { type: 'Circle', coordinates: [1, 2] }, properties: {} })),
      'geometry_invalid',
      {
        index: 1,
        type: 'Circle',
      },
    );
    await rejectsWith(
      importText(collection({ type: 'Feature', geometry: { type: 'LineString', coordinates: [1, 2] }, properties: {} })),
      'coordinates_invalid',
      {
        index: 0,
        type: 'LineString',
      },
    );
    await rejectsWith(importText(collection({ type: 'Feature', geometry: point(1, 2), properties: [1] })), 'properties_invalid', {
      index: 0,
    });
    await rejectsWith(importText(collection({ type: 'Feature', properties: {} })), 'geometry_missing', { index: 0 });
  });

  it('refuses texts that are no GeoJSON: empty, an array, an unknown type, a collection without features', async () => {
    await rejectsWith(importText(''), 'empty_input');
    await rejectsWith(importText('[1, 2]'), 'not_geojson');
    await rejectsWith(importText('{"type": "Topology"}'), 'unknown_type', { type: 'Topology' });
    await rejectsWith(importText('{"type": "FeatureCollection"}'), 'features_missing');
    await rejectsWith(importText('{"type": "Feature", "features": []}'), 'not_a_collection', { type: 'Feature' });
    await rejectsWith(geojsonImport(fakeFiles({})).run({}, fakeRunContext()), 'no_geojson_input');
    await rejectsWith(
      geojsonImport(fakeFiles({})).run({ file: [fileDatum('gone.geojson')] }, fakeRunContext()),
      'file_unreadable',
      {
        name: 'gone.geojson',
      },
    );
  });

  it('reprojects from the crs member (urn:ogc:def:crs:EPSG::NNNN) to EPSG:4326 unless auto_transform is off', async () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } },
      features: [{ type: 'Feature', geometry: point(500000, 5800000), properties: { a: 1 } }],
    });
    const [f] = await importText(text);
    const [lon, lat] = (f.geometry as { coordinates: number[] }).coordinates;
    assert.ok(Math.abs(lon - 9) < 1e-6, `lon ${lon}`);
    assert.ok(Math.abs(lat - 52.3503) < 1e-3, `lat ${lat}`);
    assert.deepEqual(f.properties, { a: 1 });
    const [kept] = await importText(text, { auto_transform: one(false) });
    assert.deepEqual(kept.geometry, point(500000, 5800000));
  });

  it('lets the crs setting override the crs member, and leaves WGS 84 data (CRS84, EPSG:4326) unchanged', async () => {
    const text = JSON.stringify({
      type: 'Feature',
      crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } },
      geometry: point(500000, 5800000),
      properties: {},
    });
    const [kept] = await importText(text.replace('500000, 5800000', '9, 52'));
    assert.deepEqual(kept.geometry, point(500000, 5800000));
    const [moved] = await importText(text, { crs: one('EPSG:25832') });
    const [lon] = (moved.geometry as { coordinates: number[] }).coordinates;
    assert.ok(Math.abs(lon - 9) < 1e-6, `lon ${lon}`);
    await rejectsWith(importText('{"type":"Point","coordinates":[1,2],"crs":{"type":"name"}}'), 'crs_member_invalid');
  });

  it('stops when the run is aborted', async () => {
    const ctx = fakeRunContext();
    ctx.controller.abort();
    const text = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: {} }] });
    await assert.rejects(importText(text, {}, ctx));
  });

  it('decodes files in the encoding setting (windows-1252, iso-8859-1), UTF-8 by default', async () => {
    const text = '{"type":"Feature","geometry":null,"properties":{"ort":"Düsseldorf","straße":"Königsallee"}}';
    const files = fakeFiles({
      '/files/ansi.geojson': () => Readable.from([Buffer.from(text, 'latin1')]),
      '/files/utf8.geojson': () => Readable.from([Buffer.from(text, 'utf8')]),
    });
    const read = async (name: string, params: FunctionInputs = {}) =>
      featuresOf(await geojsonImport(files).run({ file: [fileDatum(name)], ...params }, fakeRunContext()));
    const expected = { ort: 'Düsseldorf', straße: 'Königsallee' };
    assert.deepEqual((await read('utf8.geojson'))[0].properties, expected);
    assert.deepEqual((await read('ansi.geojson', { encoding: one('windows-1252') }))[0].properties, expected);
    assert.deepEqual((await read('ansi.geojson', { encoding: one('iso-8859-1') }))[0].properties, expected);
    await rejectsWith(read('ansi.geojson', { encoding: one('utf-16') }), 'invalid_choice', { port: 'encoding' });
  });
});
