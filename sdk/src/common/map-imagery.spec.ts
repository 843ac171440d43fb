import assert from 'node:assert/strict';
import { relayedImageryUrl, wmsImageryOf, wmtsImageryOf } from './map-imagery';

describe('map imagery of WMS and WMTS datums (decision 0067)', () => {
  it('reads a WMS datum: layers from the datum or the address, the address without the parameters the map sets', () => {
    assert.deepEqual(wmsImageryOf({ tms_url: 'https://maps.example.org/wms?map=a.map', layers: 'roads', transparent: false }), {
      kind: 'wms',
      url: 'https://maps.example.org/wms?map=a.map',
      layers: 'roads',
      styles: '',
      format: 'image/png',
      transparent: false,
      version: '1.3.0',
    });
    const fromLink = wmsImageryOf({
      tms_url: 'https://x.org/wms?SERVICE=WMS&REQUEST=GetMap&VERSION=1.1.1&LAYERS=a,b&FORMAT=image/jpeg&BBOX=1,2,3,4',
    });
    assert.equal(fromLink?.url, 'https://x.org/wms');
    assert.equal(fromLink?.layers, 'a,b');
    assert.equal(fromLink?.version, '1.1.1');
    assert.equal(fromLink?.format, 'image/jpeg');
    assert.equal(fromLink?.transparent, true);
  });

  it('gives nothing for a WMS datum without an http address or without layers', () => {
    assert.equal(wmsImageryOf({ tms_url: 'https://x.org/wms' }), undefined);
    assert.equal(wmsImageryOf({ tms_url: 'ftp://x.org/wms', layers: 'a' }), undefined);
    assert.equal(wmsImageryOf({ tms_url: '', layers: 'a' }), undefined);
  });

  it('reads a WMTS datum as KVP (LAYER, TILEMATRIXSET, STYLE) or as a RESTful template', () => {
    assert.deepEqual(
      wmtsImageryOf({
        tms_url: 'https://x.org/wmts?SERVICE=WMTS&REQUEST=GetTile&LAYER=roads&TILEMATRIXSET=EPSG:4326&STYLE=dark',
      }),
      { kind: 'wmts', url: 'https://x.org/wmts', layer: 'roads', style: 'dark', tileMatrixSet: 'EPSG:4326', format: 'image/png' },
    );
    const rest = wmtsImageryOf({
      tms_url: 'https://x.org/wmts/roads/default/GoogleMapsCompatible/{TileMatrix}/{TileRow}/{TileCol}.png',
    });
    assert.equal(rest?.url, 'https://x.org/wmts/roads/default/GoogleMapsCompatible/{TileMatrix}/{TileRow}/{TileCol}.png');
    assert.equal(rest?.tileMatrixSet, 'GoogleMapsCompatible');
    assert.equal(wmtsImageryOf({ tms_url: 'https://x.org/wmts?SERVICE=WMTS' }), undefined, 'no layer');
    assert.equal(wmtsImageryOf({ tms_url: 'https://x.org/{Layer}/{TileMatrix}/{TileRow}/{TileCol}.png' }), undefined);
  });

  it('relays addresses of other origins through the server, and leaves its own alone', () => {
    const origin = 'https://werkbank.example.org';
    assert.equal(relayedImageryUrl('/wms?a=1', origin), '/wms?a=1');
    assert.equal(relayedImageryUrl(`${origin}/wms`, origin), `${origin}/wms`);
    assert.equal(
      relayedImageryUrl('https://maps.example.org/wms?a=1&b=2', origin),
      '/api/v2/backend/map-imagery?url=https%3A%2F%2Fmaps.example.org%2Fwms%3Fa%3D1%26b%3D2',
    );
  });
});
