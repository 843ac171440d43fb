import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  contentOf,
  expectStatus,
  GEODATA_PLUGINS,
  link,
  newSwitchboard,
  startRun,
  waitForExecution,
  type Client,
} from './geodata-test-support';

const LIVE_CHANNEL = 'werkbank_switchboard';
const ENDED = ['success', 'failure', 'aborted'];

/** A zigzag line of `n` vertices near Frankfurt: its buffer takes turf seconds of CPU. */
function zigzag(n: number) {
  const coordinates = Array.from({ length: n }, (_, i) => [7 + (i / n) * 0.5, 50 + (i % 2 ? 0.01 : 0) + Math.sin(i) * 0.002]);
  return { feature: { type: 'Feature', properties: { name: 'Zickzack' }, geometry: { type: 'LineString', coordinates } } };
}

/**
 * CPU-heavy geometry runs in the WorkerPool (issue 14 item 4, decision 0026): while a long buffer
 * computes, the API answers. Ordering, not timing: the config reply must come after the node
 * started and before its computation ended (its closing progress or status).
 */
describe('geodata: a long geometry computation leaves the API answering (issue 14 item 4)', function () {
  this.timeout(300_000);
  let t: TestServer;
  let c: Client;

  before(async () => {
    t = await startTestServer({ plugins: GEODATA_PLUGINS });
    c = (await t.user()).client;
  });
  after(async () => t?.close());

  it('answers GET /api/v2/backend/config while geometry.buffer of a large geometry computes', async () => {
    const sb = await newSwitchboard(c);
    const input = await addFrame(c, sb, 'feature', [zigzag(1500)]);
    const node = await addNode(c, sb, 'geometry.buffer', { distance: 50 });
    const output = await addFrame(c, sb, 'feature');
    await link(c, node, 'features', input, true);
    await link(c, node, 'features', output, false);

    const seen: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const sub = t.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
      if (msg.resource_uri !== node.resource_uri) return;
      const fields = (msg.fields ?? {}) as { status?: string; runinfo?: { progress?: number } };
      if (fields.status === 'started') {
        seen.push('started');
        started();
      } else if (fields.status && ENDED.includes(fields.status)) seen.push(`ended ${fields.status}`);
      else if ((fields.runinfo?.progress ?? 0) >= 90) seen.push('computed');
    });
    try {
      const execution = await startRun(c, sb);
      await running;
      expectStatus(await c.get('/api/v2/backend/config'), 200);
      seen.push('config answered');
      const ended = await waitForExecution(t, c, execution);
      assert.equal(ended.status, 'success', JSON.stringify(ended));
    } finally {
      sub.dispose();
    }
    const config = seen.indexOf('config answered');
    const computed = seen.findIndex((e) => e === 'computed' || e.startsWith('ended'));
    assert.ok(config > seen.indexOf('started') && config < computed, seen.join(' → '));
    const [buffered] = await contentOf(c, output);
    assert.equal(buffered.feature.geometry.type, 'Polygon');
    assert.equal(buffered.feature.properties.name, 'Zickzack');
  });
});
