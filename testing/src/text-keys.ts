import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A translation file's tree (i18n/en.json, de.json). */
export type Messages = { [k: string]: string | Messages };

/** True when `key` (dotted) is a text of `messages`, or a plural pair `key_one` / `key_other` (i18next). */
export function hasText(messages: Messages, key: string): boolean {
  const parts = key.split('.');
  const leaf = parts.pop()!;
  const parent = parts.reduce<string | Messages | undefined>((n, p) => (typeof n === 'object' ? n[p] : undefined), messages);
  if (typeof parent !== 'object') return false;
  return typeof parent[leaf] === 'string' || (`${leaf}_one` in parent && `${leaf}_other` in parent);
}

/** Every key of a message tree as a dotted path (plural forms as they are written). */
export function textKeys(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : textKeys(v, `${prefix}${k}.`),
  );
}

function sourceFiles(dir: string, recursive: boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return recursive ? sourceFiles(path, true) : [];
    return /\.tsx?$/.test(name) && !/\.spec\.|test-kit|test-fixtures|-fixtures\./.test(name) ? [path] : [];
  });
}

/**
 * The dotted keys that `t('a.b')` and `t(cond ? 'a.b' : 'c.d', …)` calls use in the TypeScript
 * sources of `dir` (not specs, test kits or fixtures; sub-folders too when `recursive`). Keys of
 * other namespaces ('core:…') are not matched. Keys built at run time are not found: list them.
 */
export function usedTextKeys(dir: string, { recursive = false } = {}): string[] {
  const used = new Set<string>();
  for (const path of sourceFiles(dir, recursive)) {
    for (const m of readFileSync(path, 'utf8').matchAll(/\bt\(([^()]*?)[,)]/g)) {
      for (const k of m[1].matchAll(/'([\w-]+(?:\.[\w-]+)+)'/g)) used.add(k[1]);
    }
  }
  return [...used];
}

/** The keys of `used` that one of `languages` lacks. */
export const missingTexts = (used: Iterable<string>, ...languages: Messages[]): string[] =>
  [...used].filter((k) => languages.some((messages) => !hasText(messages, k)));
