import assert from 'node:assert/strict';
import { owslibRead } from '../../test/owslib';
import { esc, iso19139 } from './iso19139';

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
      language: 'ger',
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
