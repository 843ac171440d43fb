import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, type ServicesFixture } from './services-support';
import { corners, mapfile, mapserver, middleVertices } from './mapserver-mapfile';
import {
  colourOverlap,
  LABELS,
  MARKS,
  PARCEL_LABELS,
  parcelsGeojson,
  pixelDifference,
  pixels,
  pointsGeojson,
  PARCELS,
  streetsGeojson,
  STREET_LABELS,
  STREETS,
  TREES,
  WINDOW,
} from './wms-support';

const [W, S, E, N] = WINDOW;
const WIDTH = 800;
const HEIGHT = 550;

/**
 * The WMS renderer against MapServer 8 (issue 17): the same GDAL-made GeoJSON and the same style
 * written as a mapfile, drawn by both; under 2 % of the pixels may differ.
 */
describe('services: WMS maps look like MapServer 8 maps of the same data and style', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  const files: Record<string, string> = {};
  const layers: Record<string, Layer> = {};

  const raw = async (path: string) => {
    const res = await fetch(`${f.t.url}${path}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
  };
  const wms = (layer: Layer, query: string) => `/services/wms/${layer.slug}?SERVICE=WMS&${query}`;
  const getMap = (layer: Layer, extra = '', box = `${S},${W},${N},${E}`) =>
    wms(
      layer,
      `VERSION=1.3.0&REQUEST=GetMap&LAYERS=${layer.slug}&STYLES=&CRS=EPSG:4326&BBOX=${box}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png${extra}`,
    );

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'services-wms-'));
    files.polygon = parcelsGeojson(dir);
    files.line = streetsGeojson(dir);
    files.point = pointsGeojson(dir);
    files.middle = middleVertices(dir, files.line);
    for (const [name, path, style] of [
      ['polygon', files.polygon, PARCELS],
      ['line', files.line, STREETS],
      ['point', files.point, TREES],
      ['mark', files.point, MARKS],
      ['label', files.point, LABELS],
      ['polygon label', files.polygon, PARCEL_LABELS],
      ['line label', files.line, STREET_LABELS],
    ] as const)
      layers[name] = await servedLayer(f.admin, [await approvedDepot(f, path)], { style });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Labels of points on grey, so that their white halo shows. Lines are labelled at their middle
  // vertex (decision 0083, as the style editor's preview), MapServer labels the middle of a line's
  // longest segment: for "line label" it is given the middle vertices as the labels' points.
  for (const [name, kind, style, bg] of [
    ['polygon', 'polygon', PARCELS, 'FFFFFF'],
    ['line', 'line', STREETS, 'FFFFFF'],
    ['point', 'point', TREES, 'FFFFFF'],
    ['mark', 'point', MARKS, 'FFFFFF'],
    ['label', 'point', LABELS, 'B0B0B0'],
    ['polygon label', 'polygon', PARCEL_LABELS, 'FFFFFF'],
    ['line label', 'line', STREET_LABELS, 'FFFFFF'],
  ] as const) {
    it(`draws ${name}s as MapServer 8 draws the same GeoJSON with the same style: under 2 % of the pixels differ`, async () => {
      const ours = await raw(getMap(layers[name], `&TRANSPARENT=FALSE&BGCOLOR=0x${bg}`));
      assert.equal(ours.status, 200, ours.body.toString());
      assert.equal(ours.type, 'image/png');
      // MapServer puts BBOX edges on pixel centres, half a pixel up and left of the WMS pixel grid:
      // it is asked for the box moved by half a cell so that both draw the same ground.
      const cx = (E - W) / WIDTH / 2;
      const cy = (N - S) / HEIGHT / 2;
      const theirs = await mapserver(
        mapfile(dir, files[kind], kind, style, name === 'line label' ? files.middle : undefined),
        `SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=data&STYLES=&CRS=CRS:84&BBOX=${W - cx},${S + cy},${E - cx},${N + cy}` +
          `&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png&TRANSPARENT=FALSE&BGCOLOR=0x${bg}`,
      );
      assert.equal(theirs.subarray(1, 4).toString('latin1'), 'PNG', theirs.subarray(0, 300).toString('latin1'));
      const diff = await pixelDifference(theirs, ours.body);
      console.log(
        `      ${name}: ${(diff.all * 100).toFixed(3)} % of all pixels, ${(diff.drawn * 100).toFixed(2)} % of drawn pixels differ`,
      );
      assert.ok(diff.all < 0.02, `${(diff.all * 100).toFixed(2)} % of the pixels differ`);
      // Halos: where MapServer's halo has its full colour, ours has it too, but for the glyphs' edges
      // (anti-aliased differently: at most a fifth). Ours is a stroke of twice the radius with a
      // sharper outer edge, so it has more such pixels (decision 0083).
      const halo = style.rules[0].symbol.text_halo_fill;
      if (halo) {
        const h = await colourOverlap(theirs, ours.body, halo);
        console.log(`      ${name}: halo colour at ${h.b} pixels, MapServer ${h.a}, both ${h.both}`);
        assert.ok(h.a > 200 && h.both >= 0.8 * h.a, `halo ${halo}: ${JSON.stringify(h)}`);
      }
      // Something was drawn: the map is not just background.
      const { data } = await pixels(ours.body);
      let drawn = 0;
      for (let i = 0; i < data.length; i += 4)
        if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) drawn++;
      assert.ok(drawn > WIDTH * HEIGHT * 0.005, `only ${drawn} pixels drawn`);
    });
  }

  it('draws polygons and lines in UTM 32 and Gauss–Krüger zone 2 as MapServer 8 reprojects them: under 2 % differ', async () => {
    for (const crs of ['EPSG:25832', 'EPSG:31466']) {
      const [[x0, y0], [x1, y1]] = await corners(crs);
      const size = 600;
      const [ox, oy, side] = [Math.round(x0), Math.round(y0), Math.round(Math.max(x1 - x0, y1 - y0))];
      // 1.3.0 reads Gauss–Krüger boxes northing first; MapServer is asked in 1.1.1 (easting first).
      const box = crs === 'EPSG:31466' ? `${oy},${ox},${oy + side},${ox + side}` : `${ox},${oy},${ox + side},${oy + side}`;
      const half = side / size / 2;
      for (const [name, kind, style] of [
        ['polygon', 'polygon', PARCELS],
        ['line', 'line', STREETS],
      ] as const) {
        const l = layers[name];
        const ours = await raw(
          wms(
            l,
            `VERSION=1.3.0&REQUEST=GetMap&LAYERS=${l.slug}&STYLES=&CRS=${crs}&BBOX=${box}&WIDTH=${size}&HEIGHT=${size}&FORMAT=image/png`,
          ),
        );
        assert.equal(ours.status, 200, ours.body.toString());
        const theirs = await mapserver(
          mapfile(dir, files[kind], kind, style),
          `SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=data&STYLES=&SRS=${crs}&BBOX=${ox - half},${oy + half},${ox + side - half},${oy + side + half}` +
            `&WIDTH=${size}&HEIGHT=${size}&FORMAT=image/png&TRANSPARENT=FALSE&BGCOLOR=0xFFFFFF`,
        );
        assert.equal(theirs.subarray(1, 4).toString('latin1'), 'PNG', theirs.subarray(0, 300).toString('latin1'));
        const diff = await pixelDifference(theirs, ours.body);
        console.log(
          `      ${name} in ${crs}: ${(diff.all * 100).toFixed(3)} % of all pixels, ${(diff.drawn * 100).toFixed(2)} % of drawn pixels differ`,
        );
        assert.ok(diff.all < 0.02, `${name} in ${crs}: ${(diff.all * 100).toFixed(2)} % of the pixels differ`);
      }
    }
  });
});
