import assert from 'node:assert/strict';
import type { LayerStyle } from '../common/style-model';
import { mapStyler } from './style-map';

const area = {
  type: 'Feature' as const,
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [7, 50],
        [8, 50],
        [8, 51],
        [7, 50],
      ],
    ],
  },
  properties: { kind: 'park' },
};

describe('the preview map styler (decision 0061, 0067)', () => {
  const style: LayerStyle = {
    rules: [
      {
        name: 'parks',
        symbol: { symbol_type: 'style', fill: '#00aa00', stroke: '#004400', stroke_width: 1 },
        hover_enabled: true,
        hover_symbol: { symbol_type: 'style', fill: '#ffcc00', stroke: '#ff0000', stroke_width: 4, contour_type: 'feature' },
      },
      {
        name: 'outline',
        symbol: { symbol_type: 'style', fill: '#ffffff', fill_opacity: 0, stroke: '#000000', stroke_width: 1 },
        hover_enabled: false,
        hover_symbol: { symbol_type: 'style', fill: '#ff00ff', stroke: '#ff00ff', stroke_width: 9 },
      },
    ],
  };

  it("draws a hovered feature with the hover symbols of the rules that enable them, and the others' normal symbol", () => {
    const styler = mapStyler(style);
    const normal = styler(area, 10_000);
    const hovered = styler(area, 10_000, { hover: true });
    assert.deepEqual(
      normal.map((s) => [s.fill, s.stroke, s.strokeWidth]),
      [
        ['#00aa00', '#004400', 1],
        ['#ffffff', '#000000', 1],
      ],
    );
    assert.deepEqual(
      hovered.map((s) => [s.fill, s.stroke, s.strokeWidth]),
      [
        ['#ffcc00', '#ff0000', 4],
        ['#ffffff', '#000000', 1],
      ],
    );
    assert.deepEqual(styler(area, 10_000, { hover: false }), normal);
  });
});
