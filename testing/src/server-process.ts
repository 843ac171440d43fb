import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Starts `server/src/main.ts` as `npm start` does, in a child process on the embedded database in
 * `dataDir` (or on the PostgreSQL database `env.DATABASE_URL` names; the caller's own DATABASE_URL
 * is never inherited), and resolves with its URL once it listens. `nodeOptions` go before the script (e.g. a
 * small heap); `env` adds to the environment. `output()` is everything it printed so far.
 */
export function startServerProcess(
  dataDir: string,
  opts: { adminPassword: string; nodeOptions?: string[]; env?: NodeJS.ProcessEnv },
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: opts.adminPassword,
    ...opts.env,
  };
  const child = spawn(process.execPath, [...(opts.nodeOptions ?? []), '--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolveStart, reject) => {
    child.stdout!.on('data', () => {
      const m = /running at (http:\/\/\S+)/.exec(output);
      if (m) resolveStart({ child, url: m[1].replace('localhost', '127.0.0.1'), output: () => output });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened:\n${output}`)));
  });
}
