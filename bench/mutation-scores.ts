/**
 * `npm run bench:mutation`: prints the mutation score per module from bench/mutation-scores.json
 * (written by `npm run mutate`, issue 20) next to the aim, with the modules never run yet.
 * Reads the recorded file only; it runs no mutants. `npm run bench:smoke` prints it at its end.
 */
import { fileURLToPath } from 'node:url';
import { MODULES } from '../scripts/mutate-modules';
import { readScores } from './mutation-scores-file';

export function printMutationScores(): void {
  const scores = readScores();
  const rows = MODULES.map((m) => {
    const s = scores.modules[m.name];
    if (!s) return [m.name, 'not run yet', '', '', '', ''];
    const c = s.counts;
    const unexplained = s.survivors.filter((v) => !v.why).length;
    const verdict = s.score === null ? 'no mutants' : s.score >= scores.aim ? 'met' : 'MISSED';
    return [
      m.name,
      s.score === null ? '-' : `${s.score.toFixed(1)} %`,
      verdict,
      `${c.killed + c.timeout} / ${c.survived} / ${c.noCoverage}`,
      String(unexplained),
      `${s.date} ${s.commit}${s.databases ? ` on ${s.databases.join(' and ')}` : ''}`,
    ];
  });
  const head = ['module', 'score', `aim ${scores.aim} %`, 'killed / survived / no cov.', 'unexplained', 'run'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log('\nMutation scores (bench/mutation-scores.json; `npm run mutate` updates them, docs/mutation-testing.md)');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printMutationScores();
