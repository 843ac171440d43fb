import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/check-test-prereqs.mjs');

describe('npm test’s pretest step (scripts/check-test-prereqs.mjs)', () => {
  it('stops at once with the exact command when the tools are missing and it cannot install them', () => {
    const run = spawnSync(process.execPath, [SCRIPT], {
      env: { PATH: '/nonexistent', CHROMIUM_PATH: '/nonexistent/chromium' },
      encoding: 'utf8',
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /The tests need Chromium \(browser suites\), PROJ cs2cs and projinfo/);
    assert.match(
      run.stderr,
      /apt-get update && apt-get install -y chromium proj-bin proj-data gdal-bin python3-gdal mapserver-bin postgresql mosquitto/,
    );
  });

  it('passes on a machine that has everything (this one)', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { env: process.env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
  });
});
