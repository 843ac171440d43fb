import pg from 'pg';
import { startTestServer, type TestServer } from '@werkbank/testing/node';

/** Where the benches look for PostgreSQL; the role must be allowed to create databases. */
export const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The url with its password masked, for printing. */
export function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Why PostgreSQL cannot be used at `url`, or undefined when it answers. */
export async function unreachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Boots the test server in this process on the embedded database (no url; in memory, or in
 * `dataDir` on disk as in production) or a fresh database on `url`; with `examples`, the example
 * plugins too (bench/api-list tags hello's greetings); `workerThreads` sets the worker pool's threads
 * (default: one less than the cores).
 */
export async function startServer(
  databaseUrl: string | undefined,
  options: { examples?: boolean; dataDir?: string; workerThreads?: number } = {},
): Promise<TestServer> {
  const saved = process.env.DATABASE_URL;
  if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
  else delete process.env.DATABASE_URL;
  try {
    return await startTestServer({
      logs: [],
      examples: options.examples,
      config: {
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        ...(options.workerThreads ? { workerThreads: options.workerThreads } : {}),
      },
    });
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}
