import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestClient } from '@werkbank/testing/node';
import { startServerProcess } from '@werkbank/testing/node';

/** Starts `server/src/main.ts` as `npm start` does, and resolves with its URL once it listens. */
const startProcess = (dataDir: string) =>
  startServerProcess(dataDir, { adminPassword: 'shutdown-test-pw', env: { WERKBANK_EXAMPLES: '1' } });

describe('graceful shutdown of the embedded server', function () {
  this.timeout(90000);
  const dataDir = mkdtempSync(join(tmpdir(), 'werkbank-shutdown-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops on SIGTERM with exit code 0 and keeps every committed write for the next start', async () => {
    const first = await startProcess(dataDir);
    const admin = new TestClient(first.url);
    await admin.login('admin', 'shutdown-test-pw');
    const created = await admin.post('/api/v1/greeting/', { name: 'Survives a restart' });
    assert.equal(created.status, 201);
    first.child.kill('SIGTERM');
    const [code] = await once(first.child, 'exit');
    assert.equal(code, 0, first.output());
    assert.match(first.output(), /SIGTERM: shutting down/);

    const second = await startProcess(dataDir);
    try {
      const again = new TestClient(second.url);
      await again.login('admin', 'shutdown-test-pw');
      const list = await again.get('/api/v1/greeting/?q=Survives');
      assert.equal(list.body.meta.total_count, 1);
    } finally {
      second.child.kill('SIGINT');
      await once(second.child, 'exit');
    }
  });
});
