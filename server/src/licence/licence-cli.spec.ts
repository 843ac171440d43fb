import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { verifyLicence } from '@werkbank/kernel/node';

const CLI = resolve(import.meta.dirname, 'licence-cli.ts');
const run = (args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', CLI, ...args], { encoding: 'utf8', stdio: 'pipe' });

describe('npm run licence', function () {
  const dir = mkdtempSync(join(tmpdir(), 'werkbank-licence-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a key pair and signs a licence that a server trusting the public key accepts', () => {
    run(['keygen', '--out', dir]);
    run([
      'sign',
      '--key',
      join(dir, 'licence-key.pem'),
      '--licensee',
      'Stadt Kiel',
      '--components',
      'tags,events',
      '--expires',
      '2099-12-31',
      '--out',
      join(dir, 'kiel.json'),
    ]);
    const doc = JSON.parse(readFileSync(join(dir, 'kiel.json'), 'utf8'));
    const status = verifyLicence(doc, [readFileSync(join(dir, 'licence-key.pub.pem'), 'utf8')]);
    assert.equal(status.state, 'valid');
    assert.deepEqual(status.payload?.components, ['tags', 'events']);
    assert.equal(status.payload?.licensee, 'Stadt Kiel');
  });

  it('refuses to sign without the required options and says how to call it', () => {
    assert.throws(
      () => run(['sign', '--licensee', 'x']),
      (e: { status: number; stderr: string }) => e.status === 2 && /Usage: npm run licence -- sign/.test(e.stderr),
    );
  });
});
