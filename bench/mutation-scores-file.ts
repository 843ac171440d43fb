/**
 * bench/mutation-scores.json: the mutation score per module (issue 20), written by `npm run mutate`
 * (scripts/mutate.ts) and printed by `npm run bench:mutation` and at the end of `npm run bench:smoke`.
 * Each surviving mutant carries `why`: the reason it is equivalent or harmless, written by hand;
 * a later run keeps the reason of a survivor it finds again (same file, mutator, text and replacement).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const SCORES_FILE = resolve(import.meta.dirname, 'mutation-scores.json');

export interface Survivor {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
  /** Survived (tests ran and passed) or NoCoverage (no test reaches it). */
  status: string;
  /** Why the mutant is equivalent or harmless; null until someone has looked. */
  why: string | null;
}

export interface ModuleScore {
  /** Killed and timed-out mutants over all valid ones, in percent, one decimal. */
  score: number | null;
  counts: Record<string, number>;
  date: string;
  commit: string;
  /** Hash of the module's files and specs at the run: `npm run mutate` reruns a module when it differs. */
  fingerprint: string;
  files: string[];
  specs: string[];
  /** The databases its suites ran on when not the embedded one alone (results merged). */
  databases?: string[];
  survivors: Survivor[];
}

export interface ScoresFile {
  /** Aim for every module (issue 20). */
  aim: number;
  modules: Record<string, ModuleScore>;
}

export function readScores(): ScoresFile {
  if (!existsSync(SCORES_FILE)) return { aim: 80, modules: {} };
  return JSON.parse(readFileSync(SCORES_FILE, 'utf8')) as ScoresFile;
}

export function survivorKey(s: Pick<Survivor, 'file' | 'mutator' | 'original' | 'replacement'>): string {
  return [s.file, s.mutator, s.original, s.replacement].join('\u0000');
}
