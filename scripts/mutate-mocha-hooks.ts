/**
 * Mocha root hooks of `npm run mutate` (its Stryker config requires this file; never part of
 * `npm test`). Stryker runs a mutant only with the tests its first run saw reach the mutant's code
 * (perTest coverage). Its mocha runner names the running test in a root beforeEach and never clears
 * the name, so what a suite's `before` and `after` hooks ran — an API suite's test server start:
 * plugin and route registration — was credited to whichever test ran last, often a unit test of
 * another file; the mutant was then run with that test alone and survived. These hooks credit what
 * suite hooks run between two tests to every test of the next test's file, so such a mutant runs
 * with the tests whose `before` hooks start the server again (the previous file's `after` hooks ran
 * then too: a server's teardown, which the next file's tests run in theirs; the last file's `after`
 * hooks are credited to the last file). A server start imports the plugins' node entries once per
 * process, so their module constants would run in a hook only on the first run; they are imported
 * before the first suite instead, where Stryker sees them run outside any test (a _static_ mutant:
 * run with every test in a fresh process, the mutant active from the start).
 */
import { resolve } from 'node:path';

/** Stryker's instrumenter state on `globalThis.__stryker__` (@stryker-mutator/api INSTRUMENTER_CONSTANTS). */
interface Instrumenter {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

const ROOT = resolve(import.meta.dirname, '..');
/** The coverage entry suite hooks record into between two tests; no test has this title. */
const HOOKS = 'werkbank: suite hooks between tests';

let previous: Mocha.Test | undefined;

/** Stryker's state while it measures coverage (its first run); undefined outside Stryker and while a mutant is active. */
function measuring(): Instrumenter | undefined {
  const ns = (globalThis as { __stryker__?: Instrumenter }).__stryker__;
  return ns && ns.activeMutant === undefined ? ns : undefined;
}

/** Full titles (Stryker's test ids) of every test defined in the files of `tests`. */
function testsOfFiles(tests: Mocha.Test[]): string[] {
  const files = new Set(tests.map((t) => t.file));
  let root = tests[0].parent!;
  while (root.parent) root = root.parent;
  const ids: string[] = [];
  const walk = (suite: Mocha.Suite) => {
    for (const t of suite.tests) if (files.has(t.file) && !t.isPending()) ids.push(t.fullTitle());
    suite.suites.forEach(walk);
  };
  walk(root);
  return ids;
}

/** Moves what suite hooks covered since the last test to every test of the given tests' files. */
function creditHooks(ns: Instrumenter, tests: Mocha.Test[]): void {
  const perTest = ns.mutantCoverage?.perTest;
  const hooks = perTest?.[HOOKS];
  if (!perTest || !hooks) return;
  delete perTest[HOOKS];
  if (!tests.length) return;
  for (const id of testsOfFiles(tests)) {
    const into = (perTest[id] ??= {});
    for (const [mutant, hits] of Object.entries(hooks)) into[mutant] = (into[mutant] ?? 0) + hits;
  }
}

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    const { loadNodePlugins } = await import('@werkbank/server');
    await loadNodePlugins(ROOT, { examples: true });
    const ns = measuring();
    if (ns) ns.currentTestId = HOOKS;
  },
  // Runs before Stryker's own root beforeEach, which names the test.
  beforeEach(this: Mocha.Context): void {
    const ns = measuring();
    if (ns) creditHooks(ns, [this.currentTest!]);
  },
  afterEach(this: Mocha.Context): void {
    previous = this.currentTest;
    const ns = measuring();
    if (ns) ns.currentTestId = HOOKS;
  },
  afterAll(): void {
    const ns = measuring();
    if (!ns) return;
    creditHooks(ns, previous ? [previous] : []);
    ns.currentTestId = undefined;
  },
};
