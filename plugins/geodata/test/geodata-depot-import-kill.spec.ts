import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { expectStatus, startServerProcess, TestClient } from '@werkbank/testing/node';
import { addFrame, addNode, frameUpload, get, link, newSwitchboard, type Obj } from '@werkbank/plugin-switchboards/testing';
import { newDepot, type Datum, type Depot } from '@werkbank/plugin-magazine/testing';

const PASSWORD = 'import-kill-admin-password';
/** Rows of the CSV: 30 statements of the Magazine's staged write (5,000 each), so the import is well under way when it is killed. */
const ROWS = 150_000;

function csvOf(rows: number): Buffer {
  const lines = ['x;y;name'];
  for (let i = 0; i < rows; i++)
    lines.push(`${(6 + (i % 900) / 100).toFixed(2)};${(48 + Math.floor(i / 900) / 100).toFixed(2)};p${i}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * Decision 0075: an import on the embedded database is staged batch by batch. A server killed in
 * the middle (SIGKILL: no shutdown, no rollback by the process) leaves staged rows on disk; after
 * the restart nothing of the import is visible, the depot takes writes, and the rows are gone.
 */
describe('geodata: an import killed with SIGKILL leaves nothing after a restart (embedded database)', function () {
  this.timeout(300_000);
  let dir: string;
  let child: ChildProcess | undefined;

  const start = async () => {
    const started = await startServerProcess(join(dir, 'data'), { adminPassword: PASSWORD });
    child = started.child;
    const admin = new TestClient(started.url);
    await admin.login('admin', PASSWORD);
    return admin;
  };
  const stop = async (signal: NodeJS.Signals) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'werkbank-import-kill-'));
  });
  after(async () => {
    await stop('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  });

  it('discards the staged import at the next start', async () => {
    let admin = await start();
    const depot = await newDepot(admin, 'feature');
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [9, 50] }, properties: { name: 'alt' } };
    expectStatus(await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { feature }), 201);
    const before = expectStatus<Depot>(await admin.get(depot.resource_uri), 200);

    const sb = await newSwitchboard(admin);
    const file = await addFrame(admin, sb, 'file');
    expectStatus(await frameUpload(admin, file.id, 'punkte.csv', csvOf(ROWS)), 201);
    const node = await addNode(admin, sb, 'depot.import_file', [{ name: 'depot', default_value: { value: depot.resource_uri } }]);
    await link(admin, node, 'file', file, true);
    const run = expectStatus<Obj>(await admin.post(`${sb.resource_uri}run/`, {}), 202);

    // The node's progress is written while the import runs (between its batches); once a fifth of
    // the file is read, several statements are staged. Then the server is killed.
    for (;;) {
      const now: Obj = await get(admin, node.resource_uri);
      assert.equal(expectStatus<Obj>(await admin.get(run.resource_uri), 200).status, 'started', 'the import is still running');
      if (now.runinfo.progress >= 20) break;
      await delay(100);
    }
    await stop('SIGKILL');

    admin = await start();
    const after = expectStatus<Depot>(await admin.get(depot.resource_uri), 200);
    assert.equal(after.size, 1);
    assert.deepEqual(
      after.moments.map((m) => m.id),
      before.moments.map((m) => m.id),
    );
    assert.equal(after.current_moment?.id, before.current_moment?.id);
    const datums = expectStatus<{ objects: Datum[] }>(await admin.get(`/api/v1/datum/by-depot/${depot.id}/?limit=10`), 200);
    assert.deepEqual(
      datums.objects.map((d) => (d.feature as { properties: { name: string } }).properties.name),
      ['alt'],
    );
    // The depot takes writes: no import is staged into it any more.
    const feature2 = { ...feature, properties: { name: 'neu' } };
    expectStatus(await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { feature: feature2 }), 201);
    await stop('SIGTERM');

    // On disk: the two versions written through the API, nothing staged.
    const db = await PGlite.create(join(dir, 'data', 'pg'));
    try {
      const { rows } = await db.query<{ versions: number; datums: number; staged: number }>(
        `SELECT (SELECT count(*)::int FROM magazine_datum_version WHERE depot_id = $1) AS versions,
                (SELECT coalesce(sum(last_id - first_id + 1), 0)::int FROM magazine_datum_block WHERE depot_id = $1) AS datums,
                (SELECT count(*)::int FROM magazine_import) AS staged`,
        [depot.id],
      );
      assert.deepEqual(rows[0], { versions: 2, datums: 2, staged: 0 });
    } finally {
      await db.close();
    }
  });
});
