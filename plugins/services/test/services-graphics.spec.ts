import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { expectStatus } from '@werkbank/testing/node';
import type { Layer, LayerStyle } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, type ServicesFixture } from './services-support';
import { pixels, pointsGeojson, WINDOW } from './wms-support';

const [W, S, E, N] = WINDOW;
const WIDTH = 400;
const HEIGHT = 300;

/**
 * Graphics with an image address (`graphic_url`) on WMS maps and legends (StyleImages): the server
 * fetches the image through the guarded fetcher and draws it where the browser's map does.
 */
describe('services: graphics drawn with the image their address gives', function () {
  this.timeout(120_000);
  let f: ServicesFixture;
  // The icon server runs on loopback, which the guarded fetcher refuses unless the administrator allows it.
  servicesServer((s) => (f = s), { config: { fetchAllowedHosts: ['127.0.0.1'] } });
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'services-graphics-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const query = `VERSION=1.3.0&REQUEST=GetMap&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png&TRANSPARENT=TRUE`;
  const getMap = (layer: Layer) => `/services/wms/${layer.slug}?SERVICE=WMS&LAYERS=${layer.slug}&${query}`;
  const raw = async (path: string) => {
    const res = await fetch(`${f.t.url}${path}`);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  };

  it('draws a graphic’s image fetched by its address on the map and in the legend, and a square when it cannot be had', async () => {
    // An icon server: a 16 × 16 magenta PNG, and a page that is no image.
    const icon = createCanvas(16, 16);
    const ig = icon.getContext('2d');
    ig.fillStyle = '#ff00ff';
    ig.fillRect(0, 0, 16, 16);
    const png = icon.encodeSync('png');
    let asked = 0;
    const server = createServer((req, res) => {
      asked++;
      if (req.url === '/icon.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<p>no image</p>');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const points = await approvedDepot(f, pointsGeojson(dir));
      const styled = (url: string): LayerStyle => ({
        rules: [{ name: 'Baum', symbol: { symbol_type: 'graphic', graphic_url: url, graphic_scale: 0.5, fill: '#00ff00' } }],
      });
      const withIcon = await servedLayer(f.admin, [points], { style: styled(`${base}/icon.png`) });
      // Point 1 at 6.905° E, 50.905° N: its pixel in the 400 × 300 map of WINDOW.
      const px = Math.round(((6.905 - W) / (E - W)) * WIDTH);
      const py = Math.round(((N - 50.905) / (N - S)) * HEIGHT);
      const at = async (body: Buffer, x: number, y: number) => {
        const { width, data } = await pixels(body);
        return [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)];
      };
      const map = await raw(getMap(withIcon));
      assert.equal(map.status, 200);
      assert.deepEqual(await at(map.body, px, py), [255, 0, 255, 255], 'the icon’s magenta where the point is');
      assert.deepEqual(await at(map.body, px + 12, py), [0, 0, 0, 0], 'nothing beyond its 16 px');
      // Kept for the next map: the icon server is not asked again.
      const before = asked;
      expectStatus(await f.admin.get(getMap(withIcon)), 200);
      assert.equal(asked, before);
      const legend = await raw(
        `/services/wms/${withIcon.slug}?SERVICE=WMS&REQUEST=GetLegendGraphic&LAYER=${withIcon.slug}&FORMAT=image/png&WIDTH=20&HEIGHT=20`,
      );
      assert.equal(legend.status, 200);
      assert.deepEqual(await at(legend.body, 10, 10), [255, 0, 255, 255], 'the legend shows the icon');
      // An address that gives no image: the map is drawn, the graphic as a square in its fill colour.
      const broken = await servedLayer(f.admin, [points], { style: styled(`${base}/page`) });
      const fallback = await raw(getMap(broken));
      assert.equal(fallback.status, 200);
      assert.deepEqual(await at(fallback.body, px, py), [0, 255, 0, 255]);
    } finally {
      server.close();
    }
  });
});
