export const OURS = 'werkbank';
export const NODE_PEER = 'node peer';
export const DD = 'dd';

/** Aims of the requirement (bench/README.md), on the largest file. */
export const AIM_PEER_RATIO = 0.8;
export const AIM_DD_RATIO = 0.6;
/** Werkbank's peak RSS may grow by at most this much from the smallest file to the largest ("flat"). */
export const AIM_RSS_GROWTH = 64 * 1024 * 1024;

const MiB = 1024 * 1024;

/** One file written once by one target. */
export interface UploadRun {
  bytes: number;
  target: string;
  ms: number;
  /** Resident memory of the server process just before the upload (none for dd). */
  rssBefore?: number;
  /** Its highest resident memory during the upload. */
  rssPeak?: number;
  /** CPU time the server process used during the upload (all its threads, user + system). */
  serverCpuMs?: number;
  /** CPU time the sending process (this bench) used meanwhile. */
  clientCpuMs?: number;
}

export const mib = (bytes: number) => (bytes / MiB).toFixed(0);
export const mibPerSecond = (r: UploadRun) => r.bytes / MiB / (r.ms / 1000);
const sizeName = (bytes: number) => (bytes >= 1024 * MiB ? `${bytes / 1024 / MiB} GiB` : `${mib(bytes)} MiB`);
const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const numeric = (cell: string) => /^[\d.+-]+$/.test(cell);
  return rows
    .map((r) => r.map((cell, i) => (numeric(cell) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '))
    .join('\n');
}

/** Prints every run, the throughput ratios per size and Werkbank's RSS by size. Returns the number of missed aims. */
export function printUploadReport(runs: UploadRun[]): number {
  console.log(
    '\n' +
      table([
        ['file', 'target', 'seconds', 'MiB/s', 'server CPU s', 'client CPU s', 'RSS before MiB', 'peak RSS MiB'],
        ...runs.map((r) => [
          sizeName(r.bytes),
          r.target,
          (r.ms / 1000).toFixed(1),
          mibPerSecond(r).toFixed(0),
          r.serverCpuMs === undefined ? '-' : (r.serverCpuMs / 1000).toFixed(1),
          r.clientCpuMs === undefined ? '-' : (r.clientCpuMs / 1000).toFixed(1),
          r.rssBefore === undefined ? '-' : mib(r.rssBefore),
          r.rssPeak === undefined ? '-' : mib(r.rssPeak),
        ]),
      ]),
  );
  const sizes = [...new Set(runs.map((r) => r.bytes))].sort((a, b) => a - b);
  const largest = sizes[sizes.length - 1];
  const find = (bytes: number, target: string) => runs.find((r) => r.bytes === bytes && r.target === target);
  let missed = 0;
  const ratios: string[][] = [['file', 'ratio', 'value', 'aim']];
  for (const bytes of sizes) {
    const ours = find(bytes, OURS)!;
    for (const [peer, aim] of [
      [NODE_PEER, AIM_PEER_RATIO],
      [DD, AIM_DD_RATIO],
    ] as const) {
      const other = find(bytes, peer);
      if (!other) continue;
      const ratio = mibPerSecond(ours) / mibPerSecond(other);
      const judged = bytes === largest;
      if (judged && ratio < aim) missed++;
      ratios.push([
        sizeName(bytes),
        `${OURS}/${peer} MiB/s`,
        ratio.toFixed(2),
        judged ? `>= ${aim} ${verdict(ratio >= aim)}` : '(reference)',
      ]);
    }
    const [peer, dd] = [find(bytes, NODE_PEER), find(bytes, DD)];
    // What node:http alone reaches against the disk: the ceiling for any Node server on this machine.
    if (peer && dd) {
      ratios.push([
        sizeName(bytes),
        `${NODE_PEER}/${DD} MiB/s`,
        (mibPerSecond(peer) / mibPerSecond(dd)).toFixed(2),
        '(reference)',
      ]);
    }
  }
  console.log('\nThroughput, Werkbank per peer\n' + table(ratios));
  const peaks = sizes.map((bytes) => find(bytes, OURS)?.rssPeak).filter((p): p is number => p !== undefined);
  if (peaks.length === sizes.length && sizes.length > 1) {
    const growth = peaks[peaks.length - 1] - peaks[0];
    const flat = growth <= AIM_RSS_GROWTH;
    if (!flat) missed++;
    console.log(
      `\nWerkbank peak RSS during the upload: ${sizes.map((b, i) => `${sizeName(b)} file ${mib(peaks[i])} MiB`).join(', ')}; ` +
        `${growth >= 0 ? '+' : ''}${mib(growth)} MiB for ${mib(largest - sizes[0])} MiB more file ` +
        `(aim: flat, at most +${mib(AIM_RSS_GROWTH)} MiB) ${verdict(flat)}`,
    );
  }
  console.log(missed ? `\n${missed} aim(s) missed (a benchmark: the exit code stays 0).` : '\nAll aims met.');
  return missed;
}
