import assert from 'node:assert/strict';
import type { Publication } from './published-layers';
import { parseRemoteCapabilities } from './external-wms-info';
import { gmlFeatures, mergeFeatureInfo } from './wms/feature-info-merge';

const CAPS = `<?xml version="1.0"?>
<WMS_Capabilities version="1.3.0" xmlns="http://www.opengis.net/wms" xmlns:sld="http://www.opengis.net/sld" xmlns:xlink="http://www.w3.org/1999/xlink">
<Capability><Request>
  <GetFeatureInfo><Format>text/plain</Format><Format>application/vnd.ogc.gml</Format></GetFeatureInfo>
  <sld:GetLegendGraphic><Format>image/png</Format></sld:GetLegendGraphic>
</Request>
<Layer queryable="1"><Title>root</Title>
  <Layer><Name>inherits</Name></Layer>
  <Layer queryable="0"><Name>hidden</Name>
    <Style><Name>default</Name><LegendURL><Format>image/png</Format>
      <OnlineResource xlink:href="https://maps.example/wms?request=GetLegendGraphic&amp;layer=hidden&amp;style=default"/></LegendURL></Style>
    <Style><Name>night</Name><LegendURL><OnlineResource xlink:href="javascript:alert(1)"/></LegendURL></Style>
  </Layer>
</Layer></Capability></WMS_Capabilities>`;

describe('services: what a remote WMS says of its layers (decision 0084)', () => {
  it('reads queryable layers (inherited), LegendURLs with entities decoded, GetFeatureInfo formats and GetLegendGraphic', () => {
    const caps = parseRemoteCapabilities(CAPS)!;
    assert.deepEqual([...caps.queryable], ['inherits']);
    assert.deepEqual(caps.infoFormats, ['text/plain', 'application/vnd.ogc.gml']);
    assert.equal(caps.legendGraphic, true);
    const legends = caps.legends.get('hidden')!;
    assert.equal(legends.get('default'), 'https://maps.example/wms?request=GetLegendGraphic&layer=hidden&style=default');
    assert.equal(legends.get(''), legends.get('default'), 'the first style is the default one');
    assert.equal(legends.has('night'), false, 'only http(s) addresses');
  });

  it('reads no document with entity declarations, and nothing that is not WMS capabilities', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><WMS_Capabilities><Capability/></WMS_Capabilities>`;
    assert.equal(parseRemoteCapabilities(bomb), undefined);
    assert.equal(parseRemoteCapabilities('<ServiceExceptionReport/>'), undefined);
    assert.equal(parseRemoteCapabilities('not xml <'), undefined);
  });

  it("turns MapServer's msGMLOutput into GeoJSON features without geometry", () => {
    const gml = `<?xml version="1.0"?><msGMLOutput xmlns:gml="http://www.opengis.net/gml">
      <data_layer><gml:name>data</gml:name>
        <data_feature fid="7"><gml:boundedBy><gml:Box srsName="EPSG:4326"><gml:coordinates>6.9,50.9 6.91,50.91</gml:coordinates></gml:Box></gml:boundedBy>
          <nr>1</nr><name>P1 &amp; P2</name></data_feature>
        <data_feature><nr>2</nr></data_feature>
      </data_layer></msGMLOutput>`;
    assert.deepEqual(gmlFeatures(gml), [
      { type: 'Feature', id: '7', bbox: [6.9, 50.9, 6.91, 50.91], geometry: null, properties: { nr: '1', name: 'P1 & P2' } },
      { type: 'Feature', geometry: null, properties: { nr: '2' } },
    ]);
    assert.deepEqual(gmlFeatures('<html/>'), []);
  });

  it('merges the answers of several layers, leaving out those that found nothing', () => {
    const leaf = (slug: string, name: string) =>
      ({ layer: { id: 1, slug, name, selection_fields: [] } }) as unknown as Publication;
    const parts = [
      {
        leaf: leaf('baeume', 'Bäume'),
        features: [{ type: 'Feature' as const, id: 1, geometry: null, properties: { art: 'Eiche' } }],
      },
      { leaf: leaf('leer', 'Leer'), features: [] },
      { leaf: leaf('fern', 'Fern <b>'), remote: [{ type: 'text/plain', body: Buffer.from('Layer data: <script>x</script>') }] },
    ];
    const json = mergeFeatureInfo('application/json', parts, 'de').body as { features: Array<{ layer: string }> };
    assert.deepEqual(
      json.features.map((f) => f.layer),
      ['baeume'],
    );
    const html = String(mergeFeatureInfo('text/html', parts, 'de').body);
    assert.match(html, /<h1>Bäume<\/h1>/);
    assert.ok(!html.includes('Leer'));
    assert.match(html, /<h1>Fern &lt;b&gt;<\/h1><pre>Layer data: &lt;script&gt;x&lt;\/script&gt;<\/pre>/);
    const gml = String(mergeFeatureInfo('application/vnd.ogc.gml', parts, 'de').body);
    assert.match(gml, /<msGMLOutput[^>]*><baeume_layer>.*<\/baeume_layer><\/msGMLOutput>/s);
  });
});
