import assert from 'node:assert/strict';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { LayerStyle } from '@werkbank/plugin-layers/api';
import { renderLegend, renderMap, renderMessage, type MapRenderInput, type RenderFeature } from './map-render-task';

/** The RGBA pixels of an encoded image. */
async function decode(bytes: Uint8Array) {
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const data = g.getImageData(0, 0, image.width, image.height).data;
  return {
    width: image.width,
    height: image.height,
    at: (x: number, y: number) => [...data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)],
  };
}

const square = (x: number, y: number, size: number, properties: Record<string, unknown> = {}): RenderFeature => ({
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [x, y],
        [x + size, y],
        [x + size, y + size],
        [x, y + size],
        [x, y],
      ],
    ],
  },
  properties,
});

/** A 100 × 100 px map of the box 0..100 (1 unit a pixel, y up). */
const map = (style: LayerStyle, features: RenderFeature[], extra: Partial<MapRenderInput> = {}) =>
  decode(
    renderMap({
      width: 100,
      height: 100,
      bbox: [0, 0, 100, 100],
      scaleDenominator: 5000,
      style,
      features,
      format: 'image/png',
      transparent: true,
      background: '#ffffff',
      ...extra,
    }),
  );

describe('WMS renderer (map-render-task)', () => {
  it('fills polygons with the colour and opacity of the rule whose filter they pass, y up', async () => {
    const style: LayerStyle = {
      rules: [
        {
          filter: { op: '==', attribute: 'k', value: 'a' },
          symbol: { symbol_type: 'style', fill: '#ff0000', fill_opacity: 1, stroke_width: 0 },
        },
        {
          filter: { op: '==', attribute: 'k', value: 'b' },
          symbol: { symbol_type: 'style', fill: '#0000ff', fill_opacity: 0.5, stroke_width: 0 },
        },
      ],
    };
    const img = await map(style, [square(0, 0, 40, { k: 'a' }), square(60, 60, 40, { k: 'b' }), square(0, 60, 40, { k: 'c' })]);
    assert.deepEqual(img.at(20, 80), [255, 0, 0, 255], 'bottom left: rule a');
    const blue = img.at(80, 20);
    assert.equal(blue[2], 255);
    assert.ok(Math.abs(blue[3] - 128) <= 1, `half opaque: ${blue[3]}`);
    assert.deepEqual(img.at(20, 20), [0, 0, 0, 0], 'top left: no rule applies');
  });

  it('draws a rule only inside its scale range (min inclusive, max exclusive)', async () => {
    const style: LayerStyle = {
      rules: [
        {
          min_scale_denominator: 1000,
          max_scale_denominator: 5000,
          symbol: { symbol_type: 'style', fill: '#00ff00', fill_opacity: 1 },
        },
      ],
    };
    assert.deepEqual((await map(style, [square(0, 0, 100)], { scaleDenominator: 1000 })).at(50, 50), [0, 255, 0, 255]);
    assert.deepEqual((await map(style, [square(0, 0, 100)], { scaleDenominator: 5000 })).at(50, 50), [0, 0, 0, 0]);
    assert.deepEqual((await map(style, [square(0, 0, 100)], { scaleDenominator: 999 })).at(50, 50), [0, 0, 0, 0]);
  });

  it('strokes lines with their width and dash pattern', async () => {
    const style: LayerStyle = {
      rules: [{ symbol: { symbol_type: 'style', stroke: '#000000', stroke_width: 4, stroke_dasharray: [10, 10] } }],
    };
    const line: RenderFeature = {
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 50.5],
          [100, 50.5],
        ],
      },
      properties: {},
    };
    const img = await map(style, [line]);
    // Dashes of 10 px with round caps of 2 px: the middle of a dash is drawn, the middle of a gap not.
    assert.equal(img.at(5, 49)[3], 255);
    assert.equal(img.at(15, 49)[3], 0);
    assert.equal(img.at(25, 49)[3], 255);
    assert.equal(img.at(5, 44)[3], 0, 'no wider than 4 px');
  });

  it('draws point marks with radius, fill and outline, and labels with a halo above them', async () => {
    const style: LayerStyle = {
      rules: [
        {
          symbol: {
            symbol_type: 'graphic',
            graphic: 'square',
            circle_radius: 10,
            fill: '#ff0000',
            fill_opacity: 1,
            stroke: '#000000',
            stroke_width: 2,
            text_label: 'name',
            text_size: 14,
            text_fill: '#000000',
            text_halo_fill: '#00ff00',
            text_halo_radius: 3,
            text_dy: 25,
          },
        },
      ],
    };
    const img = await map(style, [{ geometry: { type: 'Point', coordinates: [50, 50] }, properties: { name: 'WWW' } }]);
    assert.deepEqual(img.at(50, 50), [255, 0, 0, 255], 'the mark');
    assert.deepEqual(img.at(50, 64), [0, 0, 0, 0], 'beyond its radius');
    let halo = 0;
    let ink = 0;
    for (let y = 15; y < 35; y++)
      for (let x = 30; x < 70; x++) {
        const [r, g, b, a] = img.at(x, y);
        if (g === 255 && r === 0 && b === 0 && a === 255) halo++;
        if (r < 80 && g < 80 && b < 80 && a === 255) ink++;
      }
    assert.ok(halo > 30 && ink > 30, `label 25 px above: ${halo} halo and ${ink} text pixels`);
  });

  it('draws billboard icons by their anchor and opacity, and graphic marks by their shape', async () => {
    const style: LayerStyle = {
      rules: [
        {
          filter: { op: '==', attribute: 'k', value: 'icon' },
          symbol: {
            symbol_type: 'billboard',
            graphic: 'square',
            graphic_scale: 0.75,
            graphic_anchor: [0.5, 1],
            fill: '#0000ff',
            graphic_opacity: 1,
          },
        },
        {
          filter: { op: '==', attribute: 'k', value: 'mark' },
          symbol: {
            symbol_type: 'graphic',
            graphic: 'triangle',
            circle_radius: 10,
            fill: '#ff0000',
            fill_opacity: 1,
            stroke_width: 0,
          },
        },
      ],
    };
    const img = await map(style, [
      { geometry: { type: 'Point', coordinates: [25, 50] }, properties: { k: 'icon' } },
      { geometry: { type: 'Point', coordinates: [75, 50] }, properties: { k: 'mark' } },
    ]);
    // A 24 px icon standing on its point: drawn above it, nothing below.
    assert.deepEqual(img.at(25, 40), [0, 0, 255, 255]);
    assert.deepEqual(img.at(25, 56), [0, 0, 0, 0]);
    // A triangle: its base wider than its tip.
    assert.deepEqual(img.at(75, 55), [255, 0, 0, 255]);
    assert.deepEqual(img.at(69, 55), [255, 0, 0, 255]);
    assert.deepEqual(img.at(69, 44), [0, 0, 0, 0]);
  });

  it('fills the background with BGCOLOR unless transparent, and writes JPEG', async () => {
    assert.deepEqual(
      (await map({ rules: [] }, [], { transparent: false, background: '#123456' })).at(0, 0),
      [0x12, 0x34, 0x56, 255],
    );
    const jpeg = renderMap({
      width: 10,
      height: 10,
      bbox: [0, 0, 1, 1],
      scaleDenominator: 1,
      style: { rules: [] },
      features: [],
      format: 'image/jpeg',
      transparent: true,
      background: '#ffffff',
    });
    assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff]);
  });

  it('draws one rule of the legend, or every rule in rows', async () => {
    const style: LayerStyle = {
      rules: [
        { name: 'rot', symbol: { symbol_type: 'style', fill: '#ff0000', fill_opacity: 1 } },
        { name: 'blau', symbol: { symbol_type: 'style', fill: '#0000ff', fill_opacity: 1 } },
      ],
    };
    const base = { style, kind: 'polygon' as const, format: 'image/png' as const, transparent: true, background: '#ffffff' };
    const one = await decode(renderLegend({ ...base, rule: 1, width: 20, height: 20 }));
    assert.deepEqual(one.at(10, 10), [0, 0, 255, 255]);
    const all = await decode(renderLegend({ ...base, width: 200, height: 40 }));
    assert.deepEqual(all.at(10, 10), [255, 0, 0, 255]);
    assert.deepEqual(all.at(10, 30), [0, 0, 255, 255]);
  });

  it('writes a message into an image for EXCEPTIONS=INIMAGE', async () => {
    const img = await decode(
      renderMessage({ width: 200, height: 30, format: 'image/png', transparent: false, background: '#ffffff', text: 'Fehler' }),
    );
    let dark = 0;
    for (let x = 0; x < 60; x++) for (let y = 0; y < 20; y++) if (img.at(x, y)[0] < 128) dark++;
    assert.ok(dark > 20);
  });
});
