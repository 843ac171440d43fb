import { expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { addDatum, newDepot, type Depot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '../src/common/layers-api';

export const LAYERS = '/api/v1/layer/';
/** The plugins a layers suite needs (the Magazine and the types come as requirements, tags for tags, events for the feed). */
export const PLUGINS = ['types', 'magazine', 'tags', 'events', 'layers'];

let seq = 0;

export async function newLayer(c: Client, fields: Record<string, unknown> = {}): Promise<Layer> {
  return expectStatus<Layer>(await c.post(LAYERS, { name: `layer ${++seq}`, ...fields }), 201);
}

const feature = (properties: Record<string, unknown>) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7, 51] }, properties },
});

/** A feature depot with the given features' properties (at its head, not approved). */
export async function featureDepot(c: Client, props: Record<string, unknown>[]): Promise<Depot> {
  const depot = await newDepot(c, 'feature');
  for (const p of props) await addDatum(c, depot, feature(p));
  return depot;
}

/**
 * One server with the layers plugin (and what it requires) for a suite, and its administrator:
 * `layersServer((s) => ({ t, admin } = s))` inside a describe.
 */
export function layersServer(bind: (s: { t: TestServer; admin: Client }) => void): void {
  let t: TestServer | undefined;
  before(async () => {
    t = await startTestServer({ plugins: PLUGINS });
    bind({ t, admin: await t.admin() });
  });
  after(() => t?.close());
}
