/**
 * `npm run mutate`: mutation testing with StrykerJS (issue 20), an instrument like the benches, never
 * part of `npm test` or `.ci/run`.
 *
 *   npm run mutate                          recorded modules whose files or specs changed since their run
 *   npm run mutate -- --module links,csrf   those modules (mutants unchanged since the last local run are reused)
 *   npm run mutate -- --all                 every module
 *   npm run mutate -- --module links --force   every mutant again, nothing reused
 *   npm run mutate -- --list                the modules, their files and specs
 *
 * Reports go to reports/mutation/<module>/ (index.html, mutation.json; git-ignored); the score per
 * module goes to bench/mutation-scores.json (committed), which `npm run bench:mutation` prints.
 * The whole run lowers its own priority (nice 19) and runs one test process at a time.
 * docs/mutation-testing.md says how to read the results.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { resolve } from 'node:path';
import { MODULES, findModule, type Database, type MutationModule } from './mutate-modules';
import { SCORES_FILE, readScores, survivorKey, type ModuleScore, type Survivor } from '../bench/mutation-scores-file';

const ROOT = resolve(import.meta.dirname, '..');
const REPORTS = 'reports/mutation';

/** The PostgreSQL server a module's run on `postgres` uses (each API suite makes its own database there). */
const POSTGRES_URL = process.env.MUTATE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The report folder of a module's run on one database (the embedded one keeps the plain name). */
const runDir = (module: MutationModule, db: Database): string => `${REPORTS}/${module.name}${db === 'embedded' ? '' : `@${db}`}`;

/** Files of the work tree (tracked or new, not ignored) that match the module's pathspecs. */
export function resolveFiles(patterns: string[]): string[] {
  // Git's own exclude pathspecs miss files when a single pattern names the files (`a/b/*.ts`
  // without `:(exclude)a/**/*.spec.ts` taking effect), so the left-out files are listed apart.
  const left = new Set(listFiles(patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1))));
  const taken = listFiles(patterns.filter((p) => !p.startsWith('!')));
  return [...new Set(taken.filter((f) => !left.has(f) && existsSync(resolve(ROOT, f))))].sort();
}

function listFiles(globs: string[]): string[] {
  if (!globs.length) return [];
  const out = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...globs.map((g) => `:(glob)${g}`)],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return out.split('\n').filter(Boolean);
}

/** One hash over the module's files and specs: a module is "changed" when this differs from the recorded one. */
function fingerprint(files: string[], specs: string[]): string {
  const hash = createHash('sha256');
  for (const f of [...files, '--', ...specs]) {
    hash.update(f + '\0');
    if (f !== '--') hash.update(readFileSync(resolve(ROOT, f)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The suite that compares the whole API description with its snapshot runs first: mutants of
 * route texts and schemas run while a server starts, so they run with every test of the module
 * (until one fails), and that suite fails at once where the others all pass.
 */
export function snapshotFirst(specs: string[]): string[] {
  const snapshot = (s: string): boolean => s === 'test/api/conventions.spec.ts';
  return [...specs.filter(snapshot), ...specs.filter((s) => !snapshot(s))];
}

function strykerConfig(dir: string, files: string[], specs: string[], force: boolean): Record<string, unknown> {
  return {
    $schema: '../../../node_modules/@stryker-mutator/core/schema/stryker-schema.json',
    packageManager: 'npm',
    testRunner: 'mocha',
    // Node resolves the workspaces (@werkbank/*) through node_modules symlinks to the real tree, so
    // a sandbox copy would test the unmutated files; mutate in place (decision 0082).
    inPlace: true,
    // The checker type-checks each mutant; against the whole repository (tsconfig.json) that took
    // 90 s to start and 10 s per mutant here, so it checks the module's files and what they import.
    checkers: ['typescript'],
    tsconfigFile: `${dir}/tsconfig.json`,
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    // Mocha needs the tsx loader here as it does in .mocharc.json (node-option import=tsx).
    testRunnerNodeArgs: ['--import', 'tsx', '--no-experimental-require-module'],
    // The root hooks credit what suite hooks run (a test server's start) to the tests that run them.
    mochaOptions: { config: '.mocharc.json', spec: snapshotFirst(specs), require: ['scripts/mutate-mocha-hooks.ts'] },
    mutate: files,
    // tsx strips types without checking them; Stryker would otherwise write `// @ts-nocheck` into
    // every source file of the project (in place, see above) and restore them all at the end.
    disableTypeChecks: false,
    coverageAnalysis: 'perTest',
    concurrency: 1,
    timeoutMS: 10_000,
    incremental: true,
    incrementalFile: `${dir}/incremental.json`,
    force,
    reporters: ['html', 'json', 'clear-text', 'progress'],
    htmlReporter: { fileName: `${dir}/index.html` },
    jsonReporter: { fileName: `${dir}/mutation.json` },
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    thresholds: { high: 90, low: 80, break: null },
  };
}

interface ReportMutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
interface Report {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

/** Best first: a mutant detected on either database is detected. */
const STATUS_RANK = ['Killed', 'Timeout', 'Survived', 'NoCoverage'];
const rank = (status: string): number => {
  const i = STATUS_RANK.indexOf(status);
  return i < 0 ? STATUS_RANK.length : i;
};

/**
 * One report of runs over the same files on different databases: each mutant (same place, mutator
 * and replacement) with the best status any run gave it. Mutants that are invalid (compile errors)
 * are so in every run.
 */
function mergeReports(reports: Report[]): Report {
  const key = (m: ReportMutant) =>
    [
      m.mutatorName,
      m.replacement ?? '',
      m.location.start.line,
      m.location.start.column,
      m.location.end.line,
      m.location.end.column,
    ].join(':');
  const [first, ...rest] = reports;
  const files: Report['files'] = {};
  for (const [file, { source, mutants }] of Object.entries(first.files)) {
    const best = new Map(mutants.map((m) => [key(m), { ...m }]));
    for (const other of rest)
      for (const m of other.files[file]?.mutants ?? []) {
        const mine = best.get(key(m));
        if (mine && rank(m.status) < rank(mine.status)) mine.status = m.status;
      }
    files[file] = { source, mutants: [...best.values()] };
  }
  return { files };
}

/** The text a mutant replaced, on one line and short enough to read in a list. */
function original(source: string, m: ReportMutant): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  const text =
    start.line === end.line
      ? lines[start.line - 1].slice(start.column - 1, end.column - 1)
      : [
          lines[start.line - 1].slice(start.column - 1),
          ...lines.slice(start.line, end.line - 1),
          lines[end.line - 1].slice(0, end.column - 1),
        ].join('\n');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

/** Score as Stryker counts it: detected (killed, timeout) over valid mutants (those plus survived and no coverage). */
function summarise(
  report: Report,
  previous: ModuleScore | undefined,
): Omit<ModuleScore, 'date' | 'commit' | 'fingerprint' | 'files' | 'specs'> {
  const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, compileError: 0, runtimeError: 0, ignored: 0 };
  const survivors: Survivor[] = [];
  const reasons = new Map((previous?.survivors ?? []).map((s) => [survivorKey(s), s.why]));
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      const key = (m.status.charAt(0).toLowerCase() + m.status.slice(1)) as keyof typeof counts;
      if (key in counts) counts[key]++;
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        const s: Survivor = {
          file,
          line: m.location.start.line,
          mutator: m.mutatorName,
          original: original(source, m),
          replacement: (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 120),
          status: m.status,
          why: null,
        };
        s.why = reasons.get(survivorKey(s)) ?? null;
        survivors.push(s);
      }
    }
  }
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  return { score: valid ? Math.round((1000 * detected) / valid) / 10 : null, counts, survivors };
}

/**
 * Stryker reuses the result of a mutant that was not killed while no test covering it is new. A static
 * mutant (its code runs while modules load) is covered by no single test, so its "survived" was kept
 * however many tests were added since; its result is dropped from the incremental file, and each run
 * tests it again.
 */
function forgetStaticSurvivors(incrementalFile: string): void {
  if (!existsSync(incrementalFile)) return;
  const report = JSON.parse(readFileSync(incrementalFile, 'utf8')) as {
    files: Record<string, { mutants: Array<{ static?: boolean; status: string }> }>;
  };
  for (const file of Object.values(report.files))
    file.mutants = file.mutants.filter((m) => !m.static || m.status === 'Killed' || m.status === 'Timeout');
  writeFileSync(incrementalFile, JSON.stringify(report));
}

function runStryker(configFile: string, db: Database): Promise<number> {
  return new Promise((done, fail) => {
    const bin = resolve(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js');
    const env = { ...process.env };
    // The API suites read DATABASE_URL: unset, each starts its server on an embedded database.
    if (db === 'postgres') env.DATABASE_URL = POSTGRES_URL;
    else delete env.DATABASE_URL;
    const child = spawn(process.execPath, [bin, 'run', configFile], { cwd: ROOT, stdio: 'inherit', env });
    child.once('error', fail);
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

function parseArgs(argv: string[]): { modules?: string[]; all: boolean; force: boolean; list: boolean } {
  const args = { all: false, force: false, list: false } as { modules?: string[]; all: boolean; force: boolean; list: boolean };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--all') args.all = true;
    else if (a === '--force') args.force = true;
    else if (a === '--list') args.list = true;
    else if (a === '--module' || a === '-m')
      args.modules = [...(args.modules ?? []), ...(argv[++i] ?? '').split(',').filter(Boolean)];
    else if (a.startsWith('--module=')) args.modules = [...(args.modules ?? []), ...a.slice(9).split(',').filter(Boolean)];
    else throw new Error(`unknown argument ${a} (use --module <name>[,<name>], --all, --force, --list)`);
  }
  return args;
}

/** One Stryker run of a module with its API suites on `db`; its report, or undefined when it failed. */
async function runOn(
  m: MutationModule,
  db: Database,
  files: string[],
  specs: string[],
  force: boolean,
): Promise<Report | undefined> {
  const dir = runDir(m, db);
  mkdirSync(resolve(ROOT, dir), { recursive: true });
  const configFile = `${dir}/stryker.config.json`;
  writeFileSync(resolve(ROOT, configFile), JSON.stringify(strykerConfig(dir, files, specs, force), null, 2));
  // The module's files, and the repository's ambient declarations (`declare module …` for
  // packages without types), which no file imports.
  const declarations = resolveFiles(['**/*.d.ts']);
  const tsconfig = {
    extends: '../../../tsconfig.json',
    files: [...new Set([...files, ...declarations])].map((f) => `../../../${f}`),
    include: [],
  };
  writeFileSync(resolve(ROOT, dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  console.log(`\n== mutate ${m.name}${db === 'embedded' ? '' : ` on ${db}`}: ${files.length} files, ${specs.length} spec files`);
  if (!force) forgetStaticSurvivors(resolve(ROOT, dir, 'incremental.json'));
  const code = await runStryker(configFile, db);
  const reportFile = resolve(ROOT, dir, 'mutation.json');
  if (code !== 0 || !existsSync(reportFile)) {
    console.error(`Stryker failed for ${m.name} on ${db} (exit ${code}).`);
    return undefined;
  }
  return JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const scores = readScores();
  if (args.list) {
    for (const m of MODULES) {
      console.log(
        `${m.name}: ${m.about}\n  mutates ${resolveFiles(m.mutate).join(' ')}\n  specs   ${resolveFiles(m.specs).join(' ')}`,
      );
    }
    return;
  }
  for (const name of args.modules ?? [])
    if (!findModule(name)) throw new Error(`no module ${name}; npm run mutate -- --list names them`);

  const chosen = args.all ? MODULES : args.modules ? MODULES.filter((m) => args.modules!.includes(m.name)) : undefined;
  const plan = (chosen ?? MODULES).map((m) => {
    const files = resolveFiles(m.mutate);
    const specs = resolveFiles(m.specs);
    return { m, files, specs, fingerprint: fingerprint(files, specs) };
  });
  // By default only modules with a recorded run whose files or specs changed since; a module never
  // run is named, not started (the plugins' modules take hours on a shared machine).
  const todo = chosen
    ? plan
    : plan.filter((p) => scores.modules[p.m.name] && scores.modules[p.m.name].fingerprint !== p.fingerprint);
  const never = plan.filter((p) => !scores.modules[p.m.name]).map((p) => p.m.name);
  if (!chosen && never.length) console.log(`Never run (start with --module <name>): ${never.join(', ')}`);
  if (!todo.length) {
    console.log('No module changed since its recorded run; `npm run mutate -- --module <name>` runs one anyway.');
    return;
  }
  if (!chosen) console.log(`Changed since their recorded run: ${todo.map((p) => p.m.name).join(', ')}`);

  // Stay out of the way of everything else on the machine; the test processes inherit this.
  setPriority(19);
  let failed = false;
  for (const { m, files, specs, fingerprint: print } of todo) {
    // The commit the run started from, with `+` when the module's files or specs had uncommitted changes.
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', ...files, ...specs], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    const commit = dirty ? `${head}+` : head;
    const databases = m.databases ?? ['embedded'];
    const reports: Report[] = [];
    for (const db of databases) {
      const report = await runOn(m, db, files, specs, args.force);
      if (report) reports.push(report);
    }
    if (reports.length < databases.length) {
      console.error(`Stryker failed for ${m.name}; its score is left as it was.`);
      failed = true;
      continue;
    }
    const summary = summarise(mergeReports(reports), scores.modules[m.name]);
    // Re-read: another module's run may have been recorded meanwhile by hand.
    const latest = readScores();
    latest.modules[m.name] = {
      ...summary,
      date: new Date().toISOString().slice(0, 16) + 'Z',
      commit,
      fingerprint: print,
      files,
      specs,
      ...(m.databases ? { databases } : {}),
    };
    writeFileSync(SCORES_FILE, JSON.stringify(latest, null, 2) + '\n');
    const unexplained = summary.survivors.filter((s) => !s.why).length;
    console.log(
      `== ${m.name}: score ${summary.score} % (${unexplained} surviving mutants without a reason in bench/mutation-scores.json)`,
    );
  }
  if (failed) process.exitCode = 1;
}

await main();
