import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FrameItems } from '@werkbank/sdk/node';
import { fakeRunContext } from '@werkbank/testing/node';
import { fakeFiles, one, serviceFunction } from './services-test-server';
import { readGmlSchema, schemaFileNames } from './gml-schema';

/** Cantons with a code that has leading zeros in some rows, as a CSV with WKT and its .csvt types for ogr2ogr. */
const CSV = `WKT,name,code,einwohner,flaeche,hauptort
"POINT(8.54 47.37)",Zürich,056,1579967,1728.94,true
"POINT(7.44 46.95)",Bern,040,1063533,5959.44,false
"POINT(6.14 46.2)",Genf,7,515000,,true
`;
const CSVT = '"WKT","String","String","Integer","Real","Integer(Boolean)"\n';

type Feature = { properties: Record<string, unknown> };

describe('gml.import: one type per attribute, from the .xsd that ogr2ogr writes next to the GML', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gml-xsd-'));
  let gml: string;
  let xsd: string;

  before(() => {
    writeFileSync(path.join(dir, 'kantone.csv'), CSV);
    writeFileSync(path.join(dir, 'kantone.csvt'), CSVT);
    const target = path.join(dir, 'kantone.gml');
    execFileSync('ogr2ogr', [
      '-f',
      'GML',
      target,
      path.join(dir, 'kantone.csv'),
      '-oo',
      'GEOM_POSSIBLE_NAMES=WKT',
      '-oo',
      'KEEP_GEOM_COLUMNS=NO',
      '-a_srs',
      'EPSG:4326',
    ]);
    gml = readFileSync(target, 'utf8');
    xsd = readFileSync(path.join(dir, 'kantone.xsd'), 'utf8');
    // what GDAL writes: the codes as they are in the text, and a schema that says they are strings
    assert.match(gml, /<ogr:code>056<\/ogr:code>/);
    assert.match(gml, /<ogr:code>7<\/ogr:code>/);
    assert.match(xsd, /name="code"[\s\S]*?base="xs:string"/);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (items: FrameItems, files: Record<string, string>) => {
    const ctx = fakeRunContext();
    const out = await serviceFunction('gml.import', fakeFiles(files)).run({ file: items }, ctx);
    return { properties: out.features.map((f) => (f.feature as Feature).properties), logs: ctx.logs };
  };

  it('reads the schema of the GML from the same input: codes stay text, numbers and booleans as declared', async () => {
    const { properties, logs } = await run([...one('kantone.gml'), ...one('kantone.xsd')], {
      'kantone.gml': gml,
      'kantone.xsd': xsd,
    });
    assert.equal(properties.length, 3, 'the .xsd is no data of its own');
    assert.deepEqual(
      properties.map((p) => p.code),
      ['056', '040', '7'],
    );
    assert.deepEqual(
      properties.map((p) => p.einwohner),
      [1579967, 1063533, 515000],
    );
    assert.deepEqual(
      properties.map((p) => p.flaeche),
      [1728.94, 5959.44, undefined],
    );
    assert.deepEqual(
      properties.map((p) => p.hauptort),
      [true, false, true],
    );
    assert.ok(
      logs.some((l) => l.includes('kantone.xsd')),
      logs.join('\n'),
    );
  });

  it('without a schema, makes an attribute text in every feature when one of its values is text', async () => {
    const { properties } = await run(one('kantone.gml'), { 'kantone.gml': gml });
    assert.deepEqual(
      properties.map((p) => p.code),
      ['056', '040', '7'],
    );
    assert.deepEqual(
      properties.map((p) => p.einwohner),
      [1579967, 1063533, 515000],
    );
  });

  it('finds the schema by the name in xsi:schemaLocation and fetches nothing the schema imports', async () => {
    assert.deepEqual(schemaFileNames(gml), ['kantone.xsd']);
    const renamed = gml.replace('kantone.xsd', 'schema/Kantone-Schema.xsd');
    const { properties } = await run([...one('a.gml'), ...one('kantone-schema.xsd')], {
      'a.gml': renamed,
      'kantone-schema.xsd': xsd,
    });
    assert.deepEqual(
      properties.map((p) => p.hauptort),
      [true, false, true],
    );
    // GDAL's schema imports gml.xsd from schemas.opengis.net: it is only named, never read
    const types = readGmlSchema(xsd, 'kantone.xsd');
    assert.deepEqual(Object.fromEntries(types.get('kantone') ?? []), {
      name: 'string',
      code: 'string',
      einwohner: 'number',
      flaeche: 'number',
      hauptort: 'boolean',
    });
  });

  it('refuses a schema with a DOCTYPE or entities (the XML guard applies to schemas too)', async () => {
    const hostile = xsd.replace('<xs:schema', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<xs:schema');
    await assert.rejects(
      run([...one('kantone.gml'), ...one('kantone.xsd')], { 'kantone.gml': gml, 'kantone.xsd': hostile }),
      (e: { code?: string }) => e.code === 'xml_doctype',
    );
  });
});
