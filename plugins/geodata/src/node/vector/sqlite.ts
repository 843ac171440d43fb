import initSqlJs, { type SqlJsStatic } from 'sql.js';

let loaded: Promise<SqlJsStatic> | undefined;

/** sql.js (SQLite compiled to WebAssembly), loaded once per process on first use. */
export function sqlite(): Promise<SqlJsStatic> {
  loaded ??= initSqlJs();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** An SQL identifier in double quotes (a table or column name from the file, never trusted). */
export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
