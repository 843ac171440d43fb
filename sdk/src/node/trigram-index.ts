import type { QueryRunner } from 'typeorm';

/**
 * Inside a migration: a trigram index (pg_trgm) that serves `?q=` substring searches (ILIKE) on a
 * column. Where the extension cannot be created (a managed server without the right), the
 * migration goes on without the index and searches scan instead — slower, equally correct.
 * Returns whether the index exists.
 */
export async function createTrigramIndex(
  q: QueryRunner,
  table: string,
  column: string,
  name = `${table}_${column}_trgm`,
): Promise<boolean> {
  const ident = /^[a-z_][a-z0-9_]*$/;
  if (![table, column, name].every((s) => ident.test(s)))
    throw new Error(`createTrigramIndex: invalid identifier in ${table}.${column}`);
  await q.query('SAVEPOINT werkbank_trgm');
  try {
    await q.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await q.query(`CREATE INDEX ${name} ON ${table} USING gin (${column} gin_trgm_ops)`);
    await q.query('RELEASE SAVEPOINT werkbank_trgm');
    return true;
  } catch {
    await q.query('ROLLBACK TO SAVEPOINT werkbank_trgm');
    return false;
  }
}
