import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer } from '@werkbank/plugin-layers/api';
import { approvedDepot, servedLayer, servicesServer, type ServicesFixture } from './services-support';
import { PARCELS, parcelsGeojson, pixels, WINDOW } from './wms-support';

const [W, S, E, N] = WINDOW;
const WIDTH = 800;
const HEIGHT = 550;

/** The viewer's attribute filters at the WMS (decision 0091): `wb_filter` on GetMap and GetFeatureInfo. */
describe('services: WMS applies the viewer’s attribute filters', function () {
  this.timeout(180_000);
  let f: ServicesFixture;
  servicesServer((s) => (f = s));
  let dir: string;
  const files: Record<string, string> = {};
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'services-wms-filters-'));
    files.polygon = parcelsGeojson(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const raw = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${f.t.url}${path}`, { headers });
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
  };
  const wms = (layer: Layer, query: string) => `/services/wms/${layer.slug}?SERVICE=WMS&${query}`;
  const getMap = (layer: Layer, extra = '') =>
    wms(
      layer,
      `VERSION=1.3.0&REQUEST=GetMap&LAYERS=${layer.slug}&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&FORMAT=image/png${extra}`,
    );
  const exception = async (path: string, headers: Record<string, string> = {}) => {
    const res = await raw(path, headers);
    assert.equal(res.status, 400);
    const text = res.body.toString('utf8');
    return { code: /code="([^"]+)"/.exec(text)?.[1], text };
  };

  it('draws and answers only the features the viewer’s attribute filters accept (wb_filter), and only filters the layer offers', async () => {
    const l = await servedLayer(f.admin, [await approvedDepot(f, files.polygon)], {
      style: PARCELS,
      attribute_filters: [
        {
          attribute_key: 'art',
          filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: ['Wiese', 'Wald'] } },
        },
        { attribute_key: 'nr', filter: { filter_type: 'min-max-value', filter_arguments: { min_value: 1, max_value: 24 } } },
      ],
    });
    const only = (art: string[], max = 24) =>
      `&wb_filter=${encodeURIComponent(
        JSON.stringify([
          { attribute_key: 'art', filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: art } } },
          { attribute_key: 'nr', filter: { filter_type: 'min-max-value', filter_arguments: { min_value: 1, max_value: max } } },
        ]),
      )}`;
    const drawn = async (extra: string) => {
      const res = await raw(getMap(l, `&TRANSPARENT=TRUE${extra}`));
      assert.equal(res.status, 200, res.body.toString());
      const { data } = await pixels(res.body);
      let n = 0;
      for (let k = 3; k < data.length; k += 4) if (data[k] > 0) n++;
      return n;
    };
    const all = await drawn('');
    const wald = await drawn(only(['Wald']));
    const wiese = await drawn(only(['Wiese']));
    assert.ok(wald > 0 && wiese > 0 && wald < all && wiese < all, `${wald} ${wiese} ${all}`);
    assert.equal(await drawn(only(['Wiese', 'Wald'])), all);
    assert.equal(await drawn(only(['Wiese', 'Wald'], 0)), 0);
    // GetFeatureInfo on the first parcel (a Wiese) finds it only when the filters let it through.
    const i = Math.round(((6.905 - W) / (E - W)) * WIDTH);
    const j = Math.round(((N - 50.905) / (N - S)) * HEIGHT);
    const gfi = `VERSION=1.3.0&REQUEST=GetFeatureInfo&LAYERS=${l.slug}&QUERY_LAYERS=${l.slug}&STYLES=&CRS=EPSG:4326&BBOX=${S},${W},${N},${E}&WIDTH=${WIDTH}&HEIGHT=${HEIGHT}&I=${i}&J=${j}&INFO_FORMAT=application/json`;
    const names = async (extra: string) =>
      (
        JSON.parse((await raw(wms(l, gfi + extra))).body.toString()) as { features: Array<{ properties: { name: string } }> }
      ).features.map((x) => x.properties.name);
    assert.deepEqual(await names(only(['Wiese'])), ['P1']);
    assert.deepEqual(await names(only(['Wald'])), []);
    // Only the filters the layer offers, as it offers them.
    for (const bad of [
      JSON.stringify([
        { attribute_key: 'name', filter: { filter_type: 'allowed-values', filter_arguments: { allowed_values: ['P1'] } } },
      ]),
      JSON.stringify([{ attribute_key: 'art', filter: { filter_type: 'min-max-value', filter_arguments: {} } }]),
      '{not json',
    ]) {
      const e = await exception(getMap(l, `&wb_filter=${encodeURIComponent(bad)}`), { 'Accept-Language': 'de' });
      assert.equal(e.code, 'InvalidParameterValue');
      assert.match(e.text, /Die Filter passen nicht zu den Attributfiltern, die diese Ebene anbietet/);
    }
  });
});
