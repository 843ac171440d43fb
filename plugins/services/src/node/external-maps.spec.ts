import assert from 'node:assert/strict';
import { wmsImageryOf, wmtsImageryOf } from '@werkbank/sdk';
import { wmsAddress, wmtsAddress, type ExternalMapRequest } from './external-maps';

const request: ExternalMapRequest = {
  crs: 'EPSG:4326',
  bbox: [6.9, 50.9, 7.0, 51.0],
  width: 400,
  height: 300,
  format: 'image/png',
  transparent: true,
  background: '#ffffff',
};

describe('external maps: remote addresses', () => {
  it('asks a WMS 1.3.0 source in the CRS axis order, keeping the address own parameters', () => {
    const imagery = wmsImageryOf({
      tms_url: 'https://geo.example/ows?map=/srv/a.map&token=T&LAYERS=a,b&VERSION=1.3.0&REQUEST=GetCapabilities&BBOX=1,2,3,4',
    })!;
    const url = new URL(wmsAddress(imagery, request, 'image/png', true));
    assert.equal(url.searchParams.get('map'), '/srv/a.map');
    assert.equal(url.searchParams.get('token'), 'T');
    assert.equal(url.searchParams.get('LAYERS'), 'a,b');
    assert.equal(url.searchParams.get('REQUEST'), 'GetMap');
    assert.equal(url.searchParams.get('CRS'), 'EPSG:4326');
    assert.equal(url.searchParams.get('BBOX'), '50.9,6.9,51,7');
    assert.equal(url.searchParams.getAll('BBOX').length, 1);
    const mercator = new URL(wmsAddress(imagery, { ...request, crs: 'EPSG:3857', bbox: [1, 2, 3, 4] }, 'image/jpeg', false));
    assert.equal(mercator.searchParams.get('BBOX'), '1,2,3,4');
    assert.equal(mercator.searchParams.get('FORMAT'), 'image/jpeg');
    assert.equal(mercator.searchParams.get('TRANSPARENT'), 'FALSE');
  });

  it('asks a WMS 1.1.1 source with SRS and x/y order (CRS:84 as EPSG:4326)', () => {
    const imagery = wmsImageryOf({ tms_url: 'http://geo.example/wms?VERSION=1.1.1', layers: 'x' })!;
    const url = new URL(wmsAddress(imagery, { ...request, crs: 'CRS:84' }, 'image/png', true));
    assert.equal(url.searchParams.get('SRS'), 'EPSG:4326');
    assert.equal(url.searchParams.get('CRS'), null);
    assert.equal(url.searchParams.get('BBOX'), '6.9,50.9,7,51');
  });

  it('fills a RESTful WMTS template and builds a KVP GetTile', () => {
    const rest = wmtsImageryOf(
      { tms_url: 'https://tiles.example/{Layer}/{TileMatrix}/{TileRow}/{TileCol}.png?key=K' },
      { layer: 'basis' },
    )!;
    assert.equal(wmtsAddress(rest, 5, 17, 11), 'https://tiles.example/basis/5/11/17.png?key=K');
    const kvp = wmtsImageryOf({ tms_url: 'https://tiles.example/wmts?LAYER=basis&TILEMATRIXSET=WebMercatorQuad&key=K' })!;
    const url = new URL(wmtsAddress(kvp, 5, 17, 11));
    assert.equal(url.searchParams.get('REQUEST'), 'GetTile');
    assert.equal(url.searchParams.get('LAYER'), 'basis');
    assert.equal(url.searchParams.get('TILEMATRIXSET'), 'WebMercatorQuad');
    assert.equal(url.searchParams.get('TILEMATRIX'), '5');
    assert.equal(url.searchParams.get('TILEROW'), '11');
    assert.equal(url.searchParams.get('TILECOL'), '17');
    assert.equal(url.searchParams.get('key'), 'K');
  });
});
