import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { ApiError, type FrameItems } from '@werkbank/sdk/node';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** plugins/geodata/test/fixtures/vector (see its README for the commands that made the files). */
export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/vector');

/** The bytes of a fixture file. */
export function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

/**
 * A FileAccess for the specs: a datum's download_url `/files/<name>` opens the in-memory file of
 * that name, else the fixture file; unknown names are refused like the server refuses them.
 */
export function fixtureFiles(extra: Record<string, Buffer> = {}): FileAccess {
  return {
    open: async (_user, file) => {
      const name = String(file.download_url).replace(/^\/files\//, '');
      let bytes = extra[name];
      if (!bytes) {
        try {
          bytes = fixture(name);
        } catch {
          throw ApiError.notFound();
        }
      }
      return { stream: Readable.from([bytes]), size: bytes.length, mime_type: 'application/octet-stream', name };
    },
  };
}

/** A file datum as a frame holds it, pointing at `name`. */
export const fileItem = (name: string): FrameItems => [
  { value: name, size: 1, mime_type: 'application/octet-stream', download_url: `/files/${name}` },
];

/** A one-item parameter. */
export const one = (value: unknown): FrameItems => [{ value }];

/** The features of a run's `features` output. */
export const featuresOf = (out: Record<string, FrameItems>) =>
  out.features.map(
    (f) =>
      f.feature as {
        type: string;
        id?: unknown;
        geometry: { type: string; coordinates: any } | null;
        properties: Record<string, unknown>;
      },
  );

/** Asserts that `p` fails with the ApiError `code` whose params include `params`. */
export const rejectsWith = (p: Promise<unknown>, code: string, params: Record<string, unknown> = {}) =>
  assert.rejects(p, (e: ApiError) => {
    assert.equal(e.code, code, String(e.message ?? e));
    for (const [k, v] of Object.entries(params)) assert.equal(e.params[k], v, `params.${k}`);
    return true;
  });

/** Asserts two positions (or boxes) have the same number of axes and agree to `tolerance` in each. */
export function near(actual: number[] | undefined, expected: number[], tolerance = 1e-6): void {
  assert.ok(Array.isArray(actual), `${JSON.stringify(actual)} is a position`);
  assert.equal(actual.length, expected.length, `${JSON.stringify(actual)} has as many axes as ${JSON.stringify(expected)}`);
  for (let i = 0; i < expected.length; i++)
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance, `${actual} ≠ ${expected} (axis ${i}, tolerance ${tolerance})`);
}

/** The lon/lat of the points in orte.geojson, in its order. */
export const ORTE_WGS84 = [
  [13.377704, 52.516275],
  [9.99247, 53.550556],
  [6.77972, 51.2225],
];

/** The same points in EPSG:25832 as `cs2cs -f %.4f EPSG:4326 EPSG:25832` computes them. */
export const ORTE_25832 = [
  [796987.2743, 5827473.0897],
  [565753.7201, 5933976.2963],
  [344958.4983, 5676910.6147],
];
