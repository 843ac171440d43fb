import assert from 'node:assert/strict';
import { checkTileSettings, resolveTileSettings, TILE_SETTING_DEFAULTS, tileStrategy } from './tile-settings';

describe('tile settings of pmtiles layers (spec 001 §3.3, decision 0062)', () => {
  it('has tippecanoe’s defaults and stores only what differs from them', () => {
    assert.deepEqual(
      { ...TILE_SETTING_DEFAULTS },
      {
        min_zoom: 0,
        max_zoom: 14,
        guess_max_zoom: false,
        max_tile_features: 200_000,
        max_tile_bytes: 500_000,
        drop_densest_as_needed: false,
        drop_smallest_as_needed: false,
        coalesce_densest_as_needed: false,
        coalesce_smallest_as_needed: false,
        no_clipping: false,
        no_duplication: false,
      },
    );
    assert.deepEqual(checkTileSettings({ min_zoom: 0, max_zoom: 10, no_clipping: false, max_tile_bytes: null }), {
      settings: { max_zoom: 10 },
    });
    assert.deepEqual(checkTileSettings({ max_zoom: 14 }), { settings: null });
    assert.deepEqual(checkTileSettings(null), { settings: null });
    assert.deepEqual(resolveTileSettings({ max_zoom: 9, drop_smallest_as_needed: true, bogus: 1 }), {
      ...TILE_SETTING_DEFAULTS,
      max_zoom: 9,
      drop_smallest_as_needed: true,
    });
  });

  it('refuses unknown keys, non-integers, out-of-range values and non-booleans, naming the field', () => {
    const problem = (v: unknown) => checkTileSettings(v).problem;
    assert.deepEqual(problem([]), { key: 'layers:tiles.errors.object', field: 'tile_settings' });
    assert.deepEqual(problem({ maxzoom: 3 }), {
      key: 'layers:tiles.errors.unknown',
      field: 'tile_settings.maxzoom',
      params: { key: 'maxzoom' },
    });
    assert.equal(problem({ max_zoom: 25 })?.field, 'tile_settings.max_zoom');
    assert.deepEqual(problem({ max_zoom: 25 })?.params, { min: 0, max: 24 });
    assert.equal(problem({ min_zoom: 1.5 })?.key, 'layers:tiles.errors.range');
    assert.equal(problem({ max_tile_features: 0 })?.key, 'layers:tiles.errors.range');
    assert.equal(problem({ max_tile_bytes: 100 })?.field, 'tile_settings.max_tile_bytes');
    assert.equal(problem({ max_tile_bytes: '500000' })?.key, 'layers:tiles.errors.range');
    assert.deepEqual(problem({ no_clipping: 'yes' }), { key: 'layers:tiles.errors.bool', field: 'tile_settings.no_clipping' });
  });

  it('wants the minimum zoom not above the maximum, unless the maximum is guessed', () => {
    assert.deepEqual(checkTileSettings({ min_zoom: 8, max_zoom: 4 }).problem, {
      key: 'layers:tiles.errors.zoom_order',
      field: 'tile_settings.min_zoom',
    });
    assert.deepEqual(checkTileSettings({ min_zoom: 16 }).problem?.key, 'layers:tiles.errors.zoom_order');
    assert.deepEqual(checkTileSettings({ min_zoom: 16, guess_max_zoom: true }).settings, { min_zoom: 16, guess_max_zoom: true });
  });

  it('takes at most one strategy for tiles over a limit', () => {
    assert.deepEqual(checkTileSettings({ drop_densest_as_needed: true, coalesce_smallest_as_needed: true }).problem, {
      key: 'layers:tiles.errors.one_strategy',
      field: 'tile_settings.coalesce_smallest_as_needed',
    });
    assert.equal(tileStrategy(resolveTileSettings({ coalesce_densest_as_needed: true })), 'coalesce_densest_as_needed');
    assert.equal(tileStrategy(resolveTileSettings(null)), undefined);
  });
});
