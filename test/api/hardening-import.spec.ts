import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, type Client } from './api-test-support';
import { SWITCHBOARD_PLUGINS, SWITCHBOARDS } from '@werkbank/plugin-switchboards/testing';

/** An exported switchboard file of `nodes` nodes (each with a parameter), as "Save as file" writes it. */
function switchboardFile(nodes: number, extra: Partial<Record<'links' | 'frames', unknown[]>> = {}) {
  return {
    format: 'werkbank-switchboard',
    version: 1,
    switchboard: { name: 'Groß' },
    nodes: Array.from({ length: nodes }, (_, i) => ({
      ref: i + 1,
      func: 'string.upper',
      ports: [{ name: 'value', default_value: { value: `n${i}` } }],
      ui_x: (i % 60) * 300,
      ui_y: Math.floor(i / 60) * 200,
    })),
    frames: extra.frames ?? [],
    links: extra.links ?? [],
    notes: [],
  };
}

/** Switchboard imports on the embedded database (issue 14 item 25). */
describe('hardening: a large switchboard import', function () {
  this.timeout(300_000);
  let t: TestServer;
  let user: Client;

  before(async () => {
    t = await startTestServer({ plugins: SWITCHBOARD_PLUGINS });
    user = (await t.user()).client;
  });
  after(() => t?.close());

  it('keeps the API answering: a request sent once the import has written its first part is answered before the import ends', async () => {
    const order: string[] = [];
    let firstPart!: () => void;
    const started = new Promise<void>((resolve) => (firstPart = resolve));
    const other = await t.user();
    const sub = t.server.events.onDidRecordEvent(({ kind }) => kind === 'switchboard' && firstPart());
    try {
      const importing = user.post(`${SWITCHBOARDS}import/`, switchboardFile(3000)).then((res) => {
        order.push('import');
        return res;
      });
      await started;
      const answered = await other.client.get(`${SWITCHBOARDS}?limit=5`);
      order.push('other request');
      expectStatus(answered, 200);
      const created = expectStatus(await importing, 201);
      assert.deepEqual(order, ['other request', 'import']);
      const canvas = expectStatus(await user.get(`${created.resource_uri}reload/`), 200);
      assert.equal(canvas.nodes.length, 3000);
    } finally {
      sub.dispose();
    }
  });

  it('leaves nothing behind when the file fails late (a broken link after 200 nodes)', async () => {
    const before = expectStatus(await user.get(SWITCHBOARDS), 200).meta.total_count;
    const nodesBefore = (await t.server.db.dataSource.query(`SELECT count(*)::int AS n FROM switchboard_node`))[0].n;
    const res = await user.post(
      `${SWITCHBOARDS}import/`,
      switchboardFile(200, { links: [{ node: 1, frame: 99, name: 'value', is_input: true }] }),
    );
    assertError(res, 400, 'invalid_file');
    assert.equal(res.body.field, 'links[0]');
    assert.equal(expectStatus(await user.get(SWITCHBOARDS), 200).meta.total_count, before);
    assert.equal((await t.server.db.dataSource.query(`SELECT count(*)::int AS n FROM switchboard_node`))[0].n, nodesBefore);
  });

  it('bounds what one import of a user may hold', async () => {
    const before = expectStatus(await user.get(SWITCHBOARDS), 200).meta.total_count;
    const big = switchboardFile(4000, {
      frames: Array.from({ length: 1001 }, (_, i) => ({ ref: i + 1, content_type: 'string', items: [] })),
    });
    const res = await user.post(`${SWITCHBOARDS}import/`, big);
    assertError(res, 400, 'invalid_file', /5001/);
    assert.equal(res.body.field, 'file');
    assert.equal(expectStatus(await user.get(SWITCHBOARDS), 200).meta.total_count, before);
  });

  it('removes at the next start a switchboard whose import a crash cut off', async () => {
    const sb = expectStatus(await user.post(SWITCHBOARDS, { name: 'Halb importiert' }), 201);
    await t.server.db.dataSource.query(`UPDATE switchboard SET import_heartbeat = now() - interval '1 hour' WHERE id = $1`, [
      sb.id,
    ]);
    const { removeInterruptedImports } = await import('../../plugins/switchboards/src/node/interrupted-imports');
    const { SwitchboardsServices } = await import('../../plugins/switchboards/src/node/switchboards-services');
    assert.equal(await removeInterruptedImports(t.server.kernel.container.get(SwitchboardsServices)), 1);
    assertError(await user.get(sb.resource_uri), 404, 'not_found');
  });
});
