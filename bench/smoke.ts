/**
 * `npm run bench:smoke`: every bench in its smoke mode (BENCH_SMOKE=1: tiny data, about a second
 * per scenario, aims printed but not judged), one after the other, each in a process of its own.
 * Fails (exit 1) when any bench fails: an error, or answers that differ from its peer's or from
 * the expected data. `.ci/run` runs it after the tests, so a bench that breaks fails the build.
 * BENCH_ONLY=engine,canvas runs only those.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { SERVER_NODE_FLAGS } from '../server/src/memory-policy';
import { printMutationScores } from './mutation-scores';

const ROOT = resolve(import.meta.dirname, '..');
/** Every bench (bench/README.md); each file runs on its own. */
export const BENCHES = [
  'api-list',
  'upload',
  'moments',
  'engine',
  'canvas',
  'viewer',
  'import',
  'extent',
  'services',
  'services-tiles',
  'services-wmts',
];

/** Longest a bench may take in smoke mode. */
const LIMIT_MS = 5 * 60_000;

function runOne(name: string): Promise<{ code: number; ms: number }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    // With the node flags of the server's start scripts: several benches run a server in their process.
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', `bench/${name}.ts`], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SMOKE: '1' },
      stdio: 'inherit',
    });
    // A smoke run takes seconds to a minute or two; one that hangs fails instead of holding up CI.
    const timer = setTimeout(() => {
      console.error(`bench/${name} did not end within ${LIMIT_MS / 60_000} minutes; stopping it`);
      child.kill('SIGKILL');
    }, LIMIT_MS);
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal ? 1 : 0), ms: performance.now() - started });
    });
  });
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const unknown = only?.filter((n) => !BENCHES.includes(n)) ?? [];
  if (unknown.length) throw new Error(`BENCH_ONLY names no bench: ${unknown.join(', ')} (known: ${BENCHES.join(', ')})`);
  const results: Array<{ name: string; code: number; ms: number }> = [];
  for (const name of only ?? BENCHES) {
    console.log(`\n===== bench/${name} (smoke)`);
    results.push({ name, ...(await runOne(name)) });
  }
  console.log('\nbench smoke runs:');
  for (const r of results)
    console.log(`  ${r.name.padEnd(10)} ${(r.ms / 1000).toFixed(0).padStart(4)} s  ${r.code ? 'FAILED' : 'ok'}`);
  // The recorded mutation scores (issue 20): read from the committed file, no mutants are run here.
  printMutationScores();
  const failed = results.filter((r) => r.code);
  if (failed.length) {
    console.log(`${failed.length} bench(es) failed: ${failed.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
