import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { esc, iso19139 } from './iso19139';

/** OWSLib's ISO parser (Debian python3-owslib) on a file: the fields the export maps. */
const OWSLIB = `
import json, sys, warnings
warnings.simplefilter("ignore")
from owslib.etree import etree
from owslib.iso import MD_Metadata
md = MD_Metadata(etree.parse(sys.argv[1]).getroot())
ident = md.identificationinfo[0]
bb = getattr(ident, "bbox", None)
print(json.dumps({
  "identifier": md.identifier,
  "title": ident.title,
  "abstract": ident.abstract,
  "keywords": [k for kw in ident.keywords for k in kw["keywords"]],
  "bbox": [float(bb.minx), float(bb.miny), float(bb.maxx), float(bb.maxy)] if bb else None,
  "temporal": [getattr(ident, "temporalextent_start", None), getattr(ident, "temporalextent_end", None)],
  "crs": md.referencesystem.code if md.referencesystem else None,
  "organisation": md.contact[0].organization,
  "email": md.contact[0].email,
  "links": [[o.url, o.protocol, o.name] for o in md.distribution.online],
  "hierarchy": md.hierarchy,
  "datestamp": md.datestamp,
  "lineage": md.dataquality.lineage if md.dataquality else None,
}))
`;

function owslibRead(xml: string): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'iso-'));
  try {
    writeFileSync(join(dir, 'layer.xml'), xml);
    return JSON.parse(execFileSync('/usr/bin/python3', ['-c', OWSLIB, join(dir, 'layer.xml')], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('layers: ISO 19139 export read back by OWSLib (decision 0066)', function () {
  this.timeout(30_000);

  it('escapes markup and drops characters XML forbids', () => {
    assert.equal(esc(`<a href="x">&'\u0001`), '&lt;a href=&quot;x&quot;&gt;&amp;&apos;');
  });

  it('maps title, abstract, extent, reference system, keywords, contact, lineage and service links', () => {
    const xml = iso19139({
      identifier: 'https://werkbank.example.org/api/v1/layer/7/',
      title: 'Bäume <&> "Sträucher"',
      abstract: 'Alle Straßenbäume & ihre Arten',
      language: 'ger',
      modified: new Date('2026-11-27T08:00:00Z'),
      keywords: ['Umwelt', 'Bäume'],
      bbox: [6.9, 51.3, 7.2, 51.55],
      timeMin: '2020-01-01T00:00:00.000Z',
      timeMax: null,
      referenceSystem: 'EPSG:25832',
      contact: { organisation: 'Stadt <Essen>', email: 'gruen@example.org' },
      lineage: 'Baumkataster 2024',
      links: [{ url: 'https://geo.example.org/wms/baeume?SERVICE=WMS&x=1', protocol: 'OGC:WMS', name: 'baeume' }],
    });
    assert.ok(!xml.includes('<&>') && !xml.includes('!DOCTYPE'));
    assert.deepEqual(owslibRead(xml), {
      identifier: 'https://werkbank.example.org/api/v1/layer/7/',
      title: 'Bäume <&> "Sträucher"',
      abstract: 'Alle Straßenbäume & ihre Arten',
      keywords: ['Umwelt', 'Bäume'],
      bbox: [6.9, 51.3, 7.2, 51.55],
      temporal: ['2020-01-01T00:00:00.000Z', null],
      crs: 'EPSG:25832',
      organisation: 'Stadt <Essen>',
      email: 'gruen@example.org',
      links: [['https://geo.example.org/wms/baeume?SERVICE=WMS&x=1', 'OGC:WMS', 'baeume']],
      hierarchy: 'dataset',
      datestamp: '2026-11-27',
      lineage: 'Baumkataster 2024',
    });
  });

  it('leaves out the extent and keywords a layer does not have', () => {
    const xml = iso19139({
      identifier: 'x',
      title: 't',
      abstract: 'a',
      language: 'eng',
      modified: new Date('2026-01-01T00:00:00Z'),
      keywords: [],
      bbox: null,
      timeMin: null,
      timeMax: null,
      referenceSystem: 'EPSG:4326',
      contact: { organisation: '', email: '' },
      lineage: '',
      links: [],
    });
    const md = owslibRead(xml);
    assert.equal(md.bbox, null);
    assert.deepEqual(md.keywords, []);
    assert.deepEqual(md.links, []);
  });
});
