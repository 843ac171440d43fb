import { hostname } from 'node:os';

/** The process that writes a temporary file: host, process id and start time, as one name part. */
export interface TempOwner {
  host: string;
  pid: number;
  started: number;
}

/** A host name as a part of a file name: letters, digits and `-`, the rest `_`, at most 64 characters. */
export const safeHost = (h: string) => h.replace(/[^A-Za-z0-9-]/g, '_').slice(0, 64) || 'host';

/** This process, as it names its temporary files (`{host}~{pid}~{started}.{uuid}.part`). */
export function currentTempOwner(started = Date.now()): TempOwner {
  return { host: safeHost(hostname()), pid: process.pid, started };
}

export function tempOwnerTag(o: TempOwner): string {
  return `${o.host}~${o.pid}~${o.started}`;
}

/** The owner named by a temporary file's name, or undefined for other names (older versions). */
export function parseTempOwner(name: string): TempOwner | undefined {
  const m = /^([A-Za-z0-9_-]+)~(\d+)~(\d+)\./.exec(name);
  return m ? { host: m[1], pid: Number(m[2]), started: Number(m[3]) } : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the owner of a temporary file has certainly stopped: it ran on this host and its process
 * is gone, or its process id is now this process's (a predecessor, e.g. pid 1 in a container).
 * Owners on other hosts sharing the folder cannot be checked from here.
 */
export function ownerStopped(owner: TempOwner, self: TempOwner): boolean {
  if (owner.host !== self.host) return false;
  if (owner.pid === self.pid) return owner.started !== self.started;
  return !alive(owner.pid);
}
