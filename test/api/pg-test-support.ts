import pg from 'pg';

/** The PostgreSQL server: DATABASE_URL in CI's second pass, otherwise the one `.ci/run` starts. */
export const SERVER_URL =
  process.env.DATABASE_URL || process.env.CI_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** `promise`, or a rejection naming `what` after `ms`: a bound on a real event, never a sleep. */
export async function within<T>(promise: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, rej) => {
    timer = setTimeout(() => rej(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One statement on its own connection to `target`. */
export async function sql<T>(target: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: target });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}
