import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TestClient } from '@werkbank/testing/node';

const ROOT = resolve(import.meta.dirname, '../..');

/** Starts `server/src/main.ts` as `npm start` does, and resolves with its URL once it listens. */
async function startProcess(dataDir: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'shutdown-test-pw',
      WERKBANK_EXAMPLES: '1',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((res, rej) => {
    const onData = () => {
      const m = /running at (http:\/\/localhost:\d+)/.exec(out);
      if (m) res(m[1].replace('localhost', '127.0.0.1'));
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => rej(new Error(`exited ${code}: ${out}`)));
  });
  return { child, url, output: () => out };
}

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
