import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNIFF_BYTES, sniffMime } from './sniff-mime';

// A real 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** Sniffs a whole small file, or the first SNIFF_BYTES of a larger one. */
const sniff = (data: string | Buffer, filename?: string) => {
  const bytes = Buffer.from(data);
  return sniffMime(bytes.subarray(0, SNIFF_BYTES), { complete: bytes.length <= SNIFF_BYTES, filename });
};

describe('sniffMime', () => {
  it('names binary formats from their bytes: PNG, PDF', async () => {
    assert.equal(await sniff(PNG), 'image/png');
    assert.equal(await sniff(PDF), 'application/pdf');
  });

  it('never lets the file name turn binary into text: PNG bytes named .txt stay image/png', async () => {
    assert.equal(await sniff(PNG, 'notes.txt'), 'image/png');
    assert.equal(await sniff(Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 7]), 'table.csv'), 'application/octet-stream');
  });

  it('calls unknown binary data application/octet-stream (NUL or control bytes, invalid UTF-8, empty)', async () => {
    assert.equal(await sniff(Buffer.from('abc\0def')), 'application/octet-stream');
    assert.equal(await sniff(Buffer.from([0x61, 0x01, 0x62])), 'application/octet-stream');
    assert.equal(await sniff(Buffer.from([0x61, 0xc3, 0x28, 0x62])), 'application/octet-stream');
    assert.equal(await sniff(Buffer.alloc(0)), 'application/octet-stream');
  });

  it('recognises JSON that parses, and a large file that starts like JSON', async () => {
    assert.equal(await sniff('  {"name": "Kiel", "n": [1, 2]}\n'), 'application/json');
    assert.equal(await sniff('[1, 2, 3]', 'x.txt'), 'application/json');
    assert.equal(await sniff(`[${'1234567890,'.repeat(1000)}0]`), 'application/json');
    assert.equal(await sniff('{not json at all'), 'text/plain');
  });

  it('recognises GeoJSON by its type, in a whole file and in the head of a large one', async () => {
    assert.equal(await sniff('{"type": "Feature", "geometry": null, "properties": {}}'), 'application/geo+json');
    const features = Array.from({ length: 200 }, (_, i) => `{"type":"Feature","properties":{"i":${i}},"geometry":null}`);
    assert.equal(await sniff(`{"type":"FeatureCollection","features":[${features.join(',')}]}`), 'application/geo+json');
    assert.equal(await sniff('{"type": "person"}'), 'application/json');
    assert.equal(await sniff('{"features": []}', 'roads.geojson'), 'application/geo+json');
  });

  it('recognises XML and its dialects by the root element: GML, SVG, KML; HTML apart', async () => {
    assert.equal(await sniff('<?xml version="1.0"?>\n<catalog><book/></catalog>'), 'application/xml');
    assert.equal(
      await sniff(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!-- export -->\n<gml:FeatureCollection xmlns:gml="http://www.opengis.net/gml/3.2"/>',
      ),
      'application/gml+xml',
    );
    assert.equal(
      await sniff('<FeatureCollection xmlns="http://www.opengis.net/gml/3.2"></FeatureCollection>'),
      'application/gml+xml',
    );
    assert.equal(await sniff('<wfs:FeatureCollection xmlns:wfs="x"/>', 'parcels.gml'), 'application/gml+xml');
    assert.equal(await sniff('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml');
    assert.equal(await sniff('<kml xmlns="http://www.opengis.net/kml/2.2"/>'), 'application/vnd.google-earth.kml+xml');
    assert.equal(await sniff('<!DOCTYPE html>\n<html><body>hi</body></html>'), 'text/html');
  });

  it('calls other UTF-8 text text/plain, refined by a text extension such as .csv', async () => {
    assert.equal(await sniff('Grüße aus Kiel\nZeile zwei\n'), 'text/plain');
    assert.equal(await sniff('id;name\n1;Kiel\n', 'städte.csv'), 'text/csv');
    assert.equal(await sniff('id;name\n1;Kiel\n', 'städte.json'), 'text/plain');
    // A multi-byte character cut by the end of the sniffed head is still text.
    assert.equal(await sniff('x' + 'ä'.repeat(SNIFF_BYTES)), 'text/plain');
  });

  it('names every GeoJSON type, whole and in the head of a large file, and JSON by how a head starts', async () => {
    const types = [
      'FeatureCollection',
      'Feature',
      'Point',
      'MultiPoint',
      'LineString',
      'MultiLineString',
      'Polygon',
      'MultiPolygon',
      'GeometryCollection',
    ];
    const padding = ' '.repeat(SNIFF_BYTES);
    for (const type of types) {
      assert.equal(await sniff(`{"type": "${type}"}`), 'application/geo+json', type);
      assert.equal(await sniff(`{"type": "${type}", "x": "${padding}"}`), 'application/geo+json', `${type}, head`);
    }
    // A head is JSON when it starts as JSON does; a whole file only when it parses.
    for (const start of [
      '{}',
      '{ "a"',
      '[[1',
      '[{"a"',
      '["x"',
      '[-1',
      '[7',
      '[]',
      '[true',
      '[false',
      '[null',
      '\uFEFF  {"a"',
      '[\n  {',
    ])
      assert.equal(await sniff(`${start}${padding}`), 'application/json', start);
    for (const start of ['{a', '[x', '[ truth', '{ 1', '{{name}} [1]']) {
      assert.equal(await sniff(`${start}${padding}`), 'text/plain', start);
    }
    // Written with a space before the colon, as some tools do.
    assert.equal(await sniff(`{"type" : "FeatureCollection", "x": "${padding}"}`), 'application/geo+json');
    assert.equal(await sniff('[{"type": "Feature"}]'), 'application/json', 'an array is no GeoJSON');
    assert.equal(await sniff('{"type": 7}'), 'application/json');
    assert.equal(await sniff('"Feature"'), 'text/plain');
    assert.equal(await sniff('{"type": "Feature"'), 'text/plain', 'a whole file that does not parse');
  });

  it('takes tab, line breaks, form feed and escape as text, and refines text by .tsv, .md and upper-case extensions', async () => {
    assert.equal(await sniff('a\tb\r\nc\fd\u001be\n'), 'text/plain');
    assert.equal(await sniff('a\u000bb'), 'application/octet-stream');
    assert.equal(await sniff('a\tb\n', 'liste.tsv'), 'text/tab-separated-values');
    assert.equal(await sniff('# Titel\n', 'LIESMICH.md'), 'text/markdown');
    assert.equal(await sniff('a;b\n', 'STAEDTE.CSV'), 'text/csv');
    assert.equal(await sniff('a;b\n', 'csv'), 'text/plain', 'a name without a dot has no extension');
    assert.equal(await sniff('a;b\n', 'staedte.csv.bak'), 'text/plain', 'only the last extension counts');
    // A character cut off at the end of a whole file is not UTF-8 text.
    assert.equal(await sniff(Buffer.from([0x61, 0xc3])), 'application/octet-stream');
  });

  it('finds the root element after a prolog and names GPX, KML, SVG with a prefix, HTML in any case, and XML by extension', async () => {
    const prolog =
      '<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<!-- a <comment> -->\n<!DOCTYPE x [<!ENTITY e "v">]>\n';
    assert.equal(await sniff(`${prolog}<gpx version="1.1"/>`), 'application/gpx+xml');
    assert.equal(
      await sniff(`${prolog}<kml:kml xmlns:kml="http://www.opengis.net/kml/2.2"/>`),
      'application/vnd.google-earth.kml+xml',
    );
    assert.equal(await sniff(`${prolog}<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>`), 'image/svg+xml');
    assert.equal(await sniff('<HTML><body>x</body></HTML>'), 'text/html');
    assert.equal(await sniff('<!doctype HTML>\n<p>x'), 'text/html');
    assert.equal(await sniff(`${prolog}<gml:Point/>`), 'application/gml+xml');
    assert.equal(await sniff("<Point xmlns = 'http://www.opengis.net/gml'/>"), 'application/gml+xml');
    assert.equal(await sniff('<Point xmlns="http://example.org/gml"/>'), 'application/xml');
    assert.equal(await sniff('<Document/>', 'karte.kml'), 'application/vnd.google-earth.kml+xml');
    assert.equal(await sniff('<trk/>', 'track.gpx'), 'application/gpx+xml');
    assert.equal(await sniff('<Document/>', 'karte.txt'), 'application/xml');
    assert.equal(await sniff('< not markup'), 'text/plain');
    assert.equal(await sniff('<1a>'), 'text/plain');
  });

  it('names a zip whose first entry runs past the sniffed head by its extension, never failing (issue 14 item 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sniff-zip-'));
    try {
      // Python's zipfile, storing a first entry much larger than the head (as a Shapefile's .shp is).
      writeFileSync(join(dir, 'gebiete.shp'), randomBytes(20_000));
      writeFileSync(join(dir, 'gebiete.dbf'), 'x');
      execFileSync('python3', ['-m', 'zipfile', '-c', 'a.zip', 'gebiete.shp', 'gebiete.dbf'], { cwd: dir });
      const zip = readFileSync(join(dir, 'a.zip'));
      assert.ok(zip.length > SNIFF_BYTES);
      assert.equal(await sniff(zip, 'gebiete.zip'), 'application/zip');
      assert.equal(await sniff(zip, 'gebiete'), 'application/zip');
      const zipBased: Array<[string, string]> = [
        ['orte.kmz', 'application/vnd.google-earth.kmz'],
        ['tabelle.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        ['bericht.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
        ['bericht.odt', 'application/vnd.oasis.opendocument.text'],
        ['tabelle.ods', 'application/vnd.oasis.opendocument.spreadsheet'],
      ];
      for (const [name, type] of zipBased) assert.equal(await sniff(zip, name), type, name);
      // A GeoPackage is an SQLite database, never a zip: zip bytes so named stay a zip.
      assert.equal(await sniff(zip, 'gebiete.gpkg'), 'application/zip');
      assert.equal(await sniff(zip, 'notes.txt'), 'application/zip', 'the extension never turns binary into text');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
