import assert from 'node:assert/strict';
import type { Layer } from '@werkbank/plugin-layers/api';
import { WmsProblem } from '../../common/wms-params';
import type { ServedFeature } from '../published-layers';
import { featureInfoGml32, wmtsInfoFormat, wmtsInfoFormatOfExtension, WMTS_INFO_FORMATS } from './wmts-feature-info';

const refused = (run: () => unknown) =>
  assert.throws(run, (e: unknown) => e instanceof WmsProblem && e.code === 'InvalidParameterValue' && e.locator === 'infoformat');

describe('services: WMTS GetFeatureInfo formats and GML 3.2', () => {
  it('reads INFOFORMAT in any case and spacing, a `+` sent as a space too, and refuses other formats', () => {
    assert.equal(wmtsInfoFormat('application/json').extension, 'json');
    assert.equal(wmtsInfoFormat(' TEXT/HTML ').extension, 'html');
    for (const raw of ['application/gml+xml; version=3.2', 'application/gml+xml;version=3.2', 'application/gml xml; version=3.2'])
      assert.equal(wmtsInfoFormat(raw).extension, 'gml', raw);
    for (const raw of ['text/xml', 'application/gml+xml; version=3.1', 'application/vnd.ogc.gml', ''])
      refused(() => wmtsInfoFormat(raw));
  });

  it('maps the RESTful extensions to the same formats, in any case', () => {
    assert.deepEqual(
      ['html', 'GML', 'json'].map((x) => wmtsInfoFormatOfExtension(x).mime),
      WMTS_INFO_FORMATS.map((f) => f.mime),
    );
    for (const x of ['xml', 'png', '']) refused(() => wmtsInfoFormatOfExtension(x));
  });

  it('writes features as a WFS 2.0 FeatureCollection of the layer’s type, latitude first, with the count', () => {
    const layer = { id: 4, slug: '4baeume' } as Layer;
    const features = [
      { type: 'Feature', id: 3, geometry: { type: 'Point', coordinates: [6.81, 50.81] }, properties: { art: 'Eiche & Buche' } },
    ] as unknown as ServedFeature[];
    const xml = featureInfoGml32(layer, 'http://x/services/wfs/4baeume', features);
    assert.match(
      xml,
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<wfs:FeatureCollection xmlns:wfs="http:\/\/www.opengis.net\/wfs\/2.0"/,
    );
    assert.match(xml, /xmlns:wb="http:\/\/x\/services\/wfs\/4baeume"/);
    assert.match(xml, /numberMatched="unknown" numberReturned="1"/);
    // A service name with a leading digit becomes an XML name as in the WFS.
    assert.match(xml, /<wfs:member><wb:layer_4baeume gml:id="layer_4baeume.3">/);
    assert.match(
      xml,
      /<gml:Point gml:id="layer_4baeume.3.geom" srsName="urn:ogc:def:crs:EPSG::4326"><gml:pos srsDimension="2">50.81 6.81<\/gml:pos>/,
    );
    assert.match(xml, /<wb:art>Eiche &amp; Buche<\/wb:art>/);
    assert.match(featureInfoGml32(layer, 'http://x', []), /numberReturned="0">\n<\/wfs:FeatureCollection>\n$/);
  });
});
