import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';

/** GDAL and OWSLib call the server in this process: they must not block its event loop. */
export const run = async (cmd: string, args: string[], env: Record<string, string> = {}) =>
  await promisify(execFile)(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });

export interface Feature {
  type: string;
  id?: number | string;
  geometry: { type: string; coordinates: number[] };
  properties: Record<string, unknown>;
}
export interface Collection {
  type: string;
  features: Feature[];
  numberMatched?: number;
  numberReturned?: number;
}

export const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
});

/** A GET of the WFS at `url` with the query: status, content type and text. */
export async function wfsGet(url: string, query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}?${query}`, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The exception of an ExceptionReport answer, after checking its status. */
export async function wfsException(url: string, query: string, status = 400, headers: Record<string, string> = {}) {
  const { status: got, text } = await wfsGet(url, query, headers);
  assert.equal(got, status, text);
  const report = xml.parse(text).ExceptionReport;
  assert.ok(report, text);
  const e = report.Exception;
  return { code: e['@_exceptionCode'] as string, locator: e['@_locator'] as string, text: String(e.ExceptionText), report };
}

/** Each expected feature in the collection (by its id property): same properties, coordinates within 1e-7°. */
export function sameFeatures(fc: Collection, expected: Feature[]): void {
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
}
