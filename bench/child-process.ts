import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** Resident memory of a process from /proc/<pid>/status, in bytes. */
export interface Rss {
  /** VmRSS: resident now. */
  current: number;
  /** VmHWM: the highest resident size since start, or since the last `resetPeak`. */
  peak: number;
}

/** Reads VmRSS and VmHWM of a live process (Linux). */
export function readRss(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(m[1]) * 1024;
  };
  return { current: kib('VmRSS'), peak: kib('VmHWM') };
}

let ticksPerSecond: number | undefined;

/** CPU time (user + system, all threads) a live process has used so far, in ms, from /proc/<pid>/stat (Linux). */
export function readCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (in parentheses, may contain spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/**
 * Sets the process's VmHWM back to its current RSS (`5` into /proc/<pid>/clear_refs, Linux ≥ 4.0,
 * allowed for our own children). Returns false where the kernel refuses; then only sampling is left.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples VmRSS every `intervalMs` until `stop()`, which returns the largest sample. A backstop for
 * the exact VmHWM: it misses spikes shorter than the interval.
 */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let max = readRss(pid).current;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, readRss(pid).current);
    } catch {
      // the process ended; stop() reports what was seen
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return max;
    },
  };
}

export interface Child {
  pid: number;
  /** The first match of `ready` in the child's output (e.g. its URL). */
  ready: string;
  /** Everything the child wrote so far, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. Only this pid. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts `node <args>` and resolves once a line of its stdout or stderr matches `ready` (capture
 * group 1 is returned, e.g. a URL). Rejects when the process exits first or after `timeoutMs`.
 */
export function startChild(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; ready: RegExp; timeoutMs?: number },
): Promise<Child> {
  const proc: ChildProcess = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async (graceMs = 15_000) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(0);
      reject(new Error(`node ${args.join(' ')} was not ready within ${options.timeoutMs ?? 120_000} ms:\n${out}`));
    }, options.timeoutMs ?? 120_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = options.ready.exec(out);
      if (m && proc.pid !== undefined) {
        clearTimeout(timer);
        resolve({ pid: proc.pid, ready: m[1] ?? m[0], output: () => out, stop });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`node ${args.join(' ')} exited (${signal ?? code}) before it was ready:\n${out}`));
    });
  });
}
