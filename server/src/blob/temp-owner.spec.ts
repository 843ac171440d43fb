import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { currentTempOwner, ownerStopped, parseTempOwner, safeHost, tempOwnerTag } from './temp-owner';

/** Who wrote a temporary upload file, read back from its name, and whether that process has stopped. */
describe('temporary file owners', () => {
  const self = currentTempOwner(1_700_000_000_000);

  it('names this process by a host name safe for a file name, its process id and start time', () => {
    assert.equal(self.pid, process.pid);
    assert.equal(self.started, 1_700_000_000_000);
    assert.equal(safeHost('kiel-01.stadt.de'), 'kiel-01_stadt_de');
    assert.equal(safeHost('x'.repeat(80)), 'x'.repeat(64));
    assert.equal(safeHost(''), 'host');
    assert.match(self.host, /^[A-Za-z0-9_-]{1,64}$/);
  });

  it('reads the owner back from a temporary file name, and nothing from other names', () => {
    const tag = tempOwnerTag({ host: 'kiel-01_stadt_de', pid: 4711, started: 1_700_000_000_123 });
    assert.deepEqual(parseTempOwner(`${tag}.0b6f.part`), { host: 'kiel-01_stadt_de', pid: 4711, started: 1_700_000_000_123 });
    assert.deepEqual(parseTempOwner(`${tempOwnerTag(self)}.x.part`), self);
    for (const name of ['0b6f.part', `old!${tag}.x.part`, 'h~1~2', 'h~x~2.part', 'h~1~.part'])
      assert.equal(parseTempOwner(name), undefined, name);
  });

  it('knows a stopped owner on this host: its process is gone, or its id is now this process’s with another start', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    assert.equal(ownerStopped({ ...self, pid: child.pid! }, self), true, 'a process that has ended');
    assert.equal(ownerStopped({ ...self, pid: process.ppid }, self), false, 'a running process');
    assert.equal(ownerStopped({ ...self, started: self.started - 1 }, self), true, 'this id, an earlier start');
    assert.equal(ownerStopped(self, self), false, 'this process itself');
    // On another host the process cannot be checked: never taken for stopped.
    assert.equal(ownerStopped({ ...self, host: 'elsewhere', pid: child.pid! }, self), false);
  });
});
