import assert from 'node:assert/strict';
import type { Publication } from '../published-layers';
import { MapGeometryCache } from './map-geometry-cache';
import { FeaturePacker, type IndexedFeatures } from './packed-features';

const publication = (layerId: number, key: string) => ({ layer: { id: layerId }, key }) as unknown as Publication;

describe('WMS map geometry cache', () => {
  it('builds a publication’s geometry once per CRS, and drops a layer’s older publications', async () => {
    const cache = new MapGeometryCache();
    let builds = 0;
    const build = async (): Promise<IndexedFeatures> => {
      builds++;
      return new FeaturePacker([]).finishIndexed();
    };
    const a = cache.get(publication(1, '1.1.-.5@7'), 'EPSG:4326', build);
    assert.equal(cache.get(publication(1, '1.1.-.5@7'), 'EPSG:4326', build), a, 'maps asking meanwhile share the build');
    await a;
    await cache.get(publication(1, '1.1.-.5@7'), 'EPSG:3857', build);
    await cache.get(publication(12, '12.1.-.6@1'), 'EPSG:4326', build);
    assert.equal(builds, 3);
    // A new moment of layer 1: its entries go, layer 12's stays.
    await cache.get(publication(1, '1.1.-.5@8'), 'EPSG:4326', build);
    await cache.get(publication(12, '12.1.-.6@1'), 'EPSG:4326', build);
    assert.equal(builds, 4);
    await cache.get(publication(1, '1.1.-.5@7'), 'EPSG:4326', build);
    assert.equal(builds, 5, 'the older publication was dropped');
  });

  it('keeps no failure and at most eight entries', async () => {
    const cache = new MapGeometryCache();
    let builds = 0;
    const failing = () => Promise.reject(new Error('read failed'));
    await assert.rejects(cache.get(publication(1, '1.a'), 'EPSG:4326', failing));
    const build = async () => {
      builds++;
      return null;
    };
    assert.equal(await cache.get(publication(1, '1.a'), 'EPSG:4326', build), null);
    assert.equal(builds, 1, 'the failure was not kept');
    for (let i = 2; i <= 10; i++) await cache.get(publication(i, `${i}.a`), 'EPSG:4326', build);
    assert.equal(builds, 10);
    await cache.get(publication(1, '1.a'), 'EPSG:4326', build);
    assert.equal(builds, 11, 'the least recently used entry was dropped');
    await cache.get(publication(10, '10.a'), 'EPSG:4326', build);
    assert.equal(builds, 11);
  });
});
