import { spawn } from 'node:child_process';
import pg from 'pg';
import type { Input } from './import-data';
import { readCpuMs } from './child-process';

/**
 * What one peer run took: wall time and the peak resident memory of its process, and the CPU time
 * (user + system) of its process and of the PostgreSQL backends serving it (bench/README.md:
 * on a shared machine CPU time moves much less than wall time).
 */
export interface PeerRun {
  ms: number;
  peakRss: number;
  cpuMs?: number;
  pgCpuMs?: number;
}

/** The libpq connection parameters of a postgres:// url (host, port, user, database). */
function libpq(url: string): { host: string; port: string; user: string; dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port || '5432',
    user: decodeURIComponent(u.username || 'postgres'),
    dbname: decodeURIComponent(u.pathname.replace(/^\//, '')),
    env: u.password ? { ...process.env, PGPASSWORD: decodeURIComponent(u.password) } : process.env,
  };
}

/**
 * Runs `command args` under GNU time (`/usr/bin/time -f`), which reports the peak RSS of the
 * process exactly (getrusage ru_maxrss); rejects with its output when it fails.
 */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<PeerRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'maxrss=%M cpu=%U+%S', command, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      const rss = /maxrss=(\d+)/.exec(out);
      if (code !== 0 || !rss) reject(new Error(`${command} exited ${code}:\n${out.slice(-4000)}`));
      else {
        const cpu = /cpu=([\d.]+)\+([\d.]+)/.exec(out);
        resolve({ ms, peakRss: Number(rss[1]) * 1024, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : undefined });
      }
    });
  });
}

/**
 * `ogr2ogr -f PostgreSQL PG:... file --config PG_USE_COPY YES -nln table -overwrite` into the
 * database at `url`; for CSV the point columns are named (x, y) and the field types detected.
 */
export function ogr2ogr(input: Input, format: 'csv' | 'geojson', url: string, table: string): Promise<PeerRun> {
  const c = libpq(url);
  const pgSource = `PG:dbname=${c.dbname} host=${c.host} port=${c.port} user=${c.user}`;
  const csv = ['-oo', 'X_POSSIBLE_NAMES=x', '-oo', 'Y_POSSIBLE_NAMES=y', '-oo', 'AUTODETECT_TYPE=YES'];
  const args = ['-f', 'PostgreSQL', pgSource, input.path, '--config', 'PG_USE_COPY', 'YES', '-nln', table, '-overwrite'];
  return timed('ogr2ogr', format === 'csv' ? [...args, ...csv] : args, c.env);
}

/** psql's `\copy table FROM file WITH (options)` into the database at `url`: the raw COPY of the rows. */
export function rawCopy(input: Input, url: string, table: string, options: string): Promise<PeerRun> {
  const c = libpq(url);
  const copy = `\\copy ${table} FROM '${input.path.replace(/'/g, "''")}' WITH (${options})`;
  const args = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', c.host, '-p', c.port, '-U', c.user, '-d', c.dbname, '-c', copy];
  return timed('psql', args, c.env);
}

/** Runs SQL statements one after the other on their own connection to `url`; returns the last result's rows. */
export async function sql<T>(url: string, ...statements: string[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let rows: T[] = [];
    for (const s of statements) rows = (await client.query(s)).rows as T[];
    return rows;
  } finally {
    await client.end();
  }
}

/**
 * The CPU time the PostgreSQL backends of `url`'s database use until `stop()`: every 100 ms the
 * backends of that database (but the meter's own) are listed and their CPU read from /proc (the
 * server runs on this machine). A backend that ends between two samples loses at most its last
 * 100 ms.
 */
export async function backendCpu(url: string): Promise<{ stop(): Promise<number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = async (initial: boolean) => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    for (const { pid } of rows) {
      try {
        const ms = readCpuMs(pid);
        if (!first.has(pid)) first.set(pid, initial ? ms : 0);
        last.set(pid, ms);
      } catch {
        // the backend ended
      }
    }
  };
  await sample(true);
  let busy = Promise.resolve();
  const timer = setInterval(() => {
    busy = busy.then(() => sample(false)).catch(() => undefined);
  }, 100);
  return {
    async stop() {
      clearInterval(timer);
      await busy;
      await sample(false);
      await client.end();
      let sum = 0;
      for (const [pid, ms] of last) sum += ms - (first.get(pid) ?? 0);
      return sum;
    },
  };
}
