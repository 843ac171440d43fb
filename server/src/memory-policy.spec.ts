import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  applyMemoryPolicy,
  DEFAULT_HEAP_GROWING_PERCENT,
  SEMI_SPACE_MB,
  SERVER_NODE_FLAGS,
  semiSpaceInEffect,
} from './memory-policy';

describe('server: memory policy (HEAP_GROWING_PERCENT)', () => {
  it('bounds heap growth by default and lets the administrator choose or switch it off', () => {
    assert.equal(applyMemoryPolicy({}), DEFAULT_HEAP_GROWING_PERCENT);
    assert.equal(applyMemoryPolicy({ HEAP_GROWING_PERCENT: '' }), DEFAULT_HEAP_GROWING_PERCENT);
    assert.equal(applyMemoryPolicy({ HEAP_GROWING_PERCENT: '0' }), 0);
    assert.equal(applyMemoryPolicy({ HEAP_GROWING_PERCENT: '30' }), 30);
    // Back to the server's default for the rest of this process.
    applyMemoryPolicy({});
  });

  it('stops start-up on a value that is not a whole percentage, naming the setting', () => {
    for (const bad of ['-5', '1.5', 'half', '2000'])
      assert.throws(() => applyMemoryPolicy({ HEAP_GROWING_PERCENT: bad }), /HEAP_GROWING_PERCENT must be a whole number/);
  });

  it('keeps a process whose live memory is flat near it while garbage streams through', () => {
    // Two fresh processes with the same work (about 60 MiB kept, 1 GiB of short-lived garbage):
    // with the policy the old generation is collected long before it reaches V8's own limit.
    const peak = (percent: string) => {
      const script = `
        import { applyMemoryPolicy } from ${JSON.stringify(new URL('./memory-policy.ts', import.meta.url).href)};
        applyMemoryPolicy({ HEAP_GROWING_PERCENT: ${JSON.stringify(percent)} });
        const live = []; for (let i = 0; i < 400000; i++) live.push({ a: 'x' + i, b: [i, i + 1] });
        const keep = []; let peak = 0;
        for (let r = 0; r < 200; r++) {
          const batch = []; for (let i = 0; i < 20000; i++) batch.push({ s: JSON.stringify({ i, r, t: 'abcdefghij'.repeat(3) }), o: [i, r] });
          keep.push(batch); if (keep.length > 5) keep.shift();
          peak = Math.max(peak, process.memoryUsage().heapTotal);
        }
        console.log(peak, live.length);`;
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
      return Number(out.split(' ')[0]);
    };
    const bounded = peak('100');
    const unbounded = peak('0');
    assert.ok(bounded < unbounded * 0.75, `heap with the policy ${bounded >> 20} MiB, without ${unbounded >> 20} MiB`);
  });

  it('starts the server, the workers and the import bench with the young generation of the policy', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const script of ['start', 'worker', 'bench:import']) {
      const args = pkg.scripts[script].split(/\s+/);
      assert.ok(
        SERVER_NODE_FLAGS.every((flag) => args.includes(flag)),
        `npm run ${script} ("${pkg.scripts[script]}") passes ${SERVER_NODE_FLAGS.join(' ')}`,
      );
      assert.equal(semiSpaceInEffect(args, ''), SEMI_SPACE_MB, script);
    }
  });

  it('reads the semi-space size a process started with: NODE_OPTIONS, then the command line, the later winning', () => {
    assert.equal(semiSpaceInEffect([], ''), undefined);
    assert.equal(semiSpaceInEffect(['--import', 'tsx'], '--max-old-space-size=4096'), undefined);
    assert.equal(semiSpaceInEffect([], '--max-semi-space-size=8'), 8);
    assert.equal(semiSpaceInEffect(['--max_semi_space_size=64'], '--max-semi-space-size=8'), 64);
    assert.equal(semiSpaceInEffect(['--max-semi-space-size=32', '--max-semi-space-size=16'], ''), 16);
  });
});
