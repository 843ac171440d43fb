import assert from 'node:assert/strict';
import { importParams, pickImportFunction } from './pick-import-function';
import type { FunctionInfo } from '../../common/switchboard-types';

const funcOf = (url: string, allowLocal = false) => {
  const p = pickImportFunction(url, { allowLocal });
  return p.func ?? `(${p.problem})`;
};

/** spec 001 §7: the import operation by URL type in the insert flow. */
describe('switchboards: import function of an address', () => {
  const table: Array<[string, string]> = [
    ['https://services.arcgis.com/abc/arcgis/rest/services/Trees/FeatureServer', 'arcgis.featureserver.import'],
    ['https://services.arcgis.com/abc/arcgis/rest/services/Trees/FeatureServer/0/query?f=geojson', 'arcgis.featureserver.import'],
    ['https://gis.example.org/arcgis/rest/services/Base/MapServer', 'arcgis.mapserver.import'],
    ['https://gis.example.org/arcgis/rest/services/Base/MapServer/2', 'arcgis.mapserver.import'],
    ['https://gis.example.org/arcgis/services/Base/MapServer/WMSServer?request=GetCapabilities&service=WMS', 'wms.import'],
    ['https://gis.example.org/arcgis/rest/services/Base/MapServer/WMTS/1.0.0/WMTSCapabilities.xml', 'wmts.import'],
    ['https://geodienste.hamburg.de/HH_WFS_Verkehr?SERVICE=WFS&REQUEST=GetCapabilities', 'wfs.import'],
    ['https://example.org/geoserver/ows?service=wfs&version=2.0.0', 'wfs.import'],
    ['https://example.org/geoserver/topp/wfs', 'wfs.import'],
    ['https://sgx.geodatenzentrum.de/wms_topplus_open?request=GetCapabilities', 'wms.import'],
    ['https://example.org/geoserver/wms', 'wms.import'],
    ['https://sgx.geodatenzentrum.de/wmts_topplus_open/1.0.0/WMTSCapabilities.xml', 'wmts.import'],
    ['https://example.org/ows?SERVICE=WMTS&REQUEST=GetCapabilities', 'wmts.import'],
    ['https://daten.transparenz.hamburg.de/dataset/strassenbaumkataster', 'file.urls_from_dataset'],
    ['https://example.org/inspire/download/datasetfeed.xml', 'file.urls_from_dataset'],
    ['https://example.org/inspire/datafeed/buildings', 'file.urls_from_dataset'],
    ['https://example.org/feeds/hydro.atom', 'file.urls_from_dataset'],
    ['https://example.org/datasets/trees/trees.zip', 'file.download'],
    ['https://example.org/data/trees.geojson', 'file.download'],
    ['http://example.org/report', 'file.download'],
    ['  https://example.org/a.csv  ', 'file.download'],
    ['/srv/data/trees.gpkg', '(local_not_allowed)'],
    ['file:///srv/data/trees.gpkg', '(local_not_allowed)'],
    ['ftp://example.org/a.zip', '(unsupported_scheme)'],
    ['example.org/a.zip', '(invalid)'],
    ['   ', '(empty)'],
  ];
  for (const [url, func] of table) {
    it(`${url.trim() || 'blank'} → ${func}`, () => assert.equal(funcOf(url), func));
  }

  it('imports a local path only when allowed, and hands on the path of a file: URL', () => {
    assert.deepEqual(pickImportFunction('/srv/data/trees.gpkg', { allowLocal: true }), {
      func: 'file.import',
      source: 'local',
      value: '/srv/data/trees.gpkg',
    });
    assert.deepEqual(pickImportFunction('file:///srv/data/B%C3%A4ume.gpkg', { allowLocal: true }), {
      func: 'file.import',
      source: 'local',
      value: '/srv/data/Bäume.gpkg',
    });
    assert.equal(funcOf('//cdn.example.org/a.zip', true), '(invalid)', 'a protocol-relative address is no local path');
  });

  it("puts the address into the function's url input, a path into path, else the first string input", () => {
    const http = pickImportFunction('https://example.org/wfs', { allowLocal: false });
    const local = pickImportFunction('/srv/a.csv', { allowLocal: true });
    assert.ok(http.func && local.func);
    const port = (name: string, content_type: string) => ({ name, content_type }) as FunctionInfo['inputs'][number];
    const fn = (...inputs: FunctionInfo['inputs']) => ({ inputs }) as FunctionInfo;
    assert.deepEqual(importParams(http), { url: { value: 'https://example.org/wfs' } });
    assert.deepEqual(importParams(local), { path: { value: '/srv/a.csv' } });
    assert.deepEqual(importParams(http, fn(port('layer', 'int'), port('address', 'string'))), {
      address: { value: 'https://example.org/wfs' },
    });
    assert.deepEqual(importParams(http, fn(port('address', 'string'), port('url', 'string'))), {
      url: { value: 'https://example.org/wfs' },
    });
  });
});
