import { fmt, judge, ratios, spread, table, type Aim } from './bench-mode';

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

const cell = (xs: Array<number | undefined>, scale: number, digits: number) =>
  xs.some((x) => x === undefined) ? '-' : fmt(spread(xs.map((x) => x! / scale)), digits);

/**
 * Prints every target and size as median (min–max) over the passes (each element of `cells` is
 * one target and size, its runs in pass order), the throughput ratios per size (per pass, then
 * their median) and Werkbank's peak RSS by size. Returns the number of missed aims.
 */
export function printUploadReport(cells: UploadRun[][]): number {
  console.log(
    `\nMedian (min–max) of ${cells[0].length} passes\n` +
      table(
        [
          ['file', 'target', 'seconds', 'MiB/s', 'server CPU s', 'client CPU s', 'RSS before MiB', 'peak RSS MiB'],
          ...cells.map((runs) => [
            sizeName(runs[0].bytes),
            runs[0].target,
            cell(
              runs.map((r) => r.ms),
              1000,
              1,
            ),
            fmt(spread(runs.map(mibPerSecond)), 0),
            cell(
              runs.map((r) => r.serverCpuMs),
              1000,
              1,
            ),
            cell(
              runs.map((r) => r.clientCpuMs),
              1000,
              1,
            ),
            cell(
              runs.map((r) => r.rssBefore),
              MiB,
              0,
            ),
            cell(
              runs.map((r) => r.rssPeak),
              MiB,
              0,
            ),
          ]),
        ],
        2,
      ),
  );
  const sizes = [...new Set(cells.map((r) => r[0].bytes))].sort((a, b) => a - b);
  const largest = sizes[sizes.length - 1];
  const find = (bytes: number, target: string) => cells.find((r) => r[0].bytes === bytes && r[0].target === target);
  const rate = (runs: UploadRun[]) => runs.map(mibPerSecond);
  const aims: Aim[] = [];
  const reference: string[][] = [['file', 'ratio', 'median (min–max)']];
  for (const bytes of sizes) {
    const ours = find(bytes, OURS)!;
    for (const [peer, aim] of [
      [NODE_PEER, AIM_PEER_RATIO],
      [DD, AIM_DD_RATIO],
    ] as const) {
      const other = find(bytes, peer);
      if (!other) continue;
      const value = spread(ratios(rate(ours), rate(other)));
      if (bytes === largest) {
        aims.push({
          what: `${sizeName(bytes)}, ${OURS}/${peer} MiB/s`,
          value,
          aim: `>= ${aim}`,
          met: (m) => m >= aim,
          digits: 2,
        });
      } else reference.push([sizeName(bytes), `${OURS}/${peer} MiB/s`, fmt(value, 2)]);
    }
    const [peer, dd] = [find(bytes, NODE_PEER), find(bytes, DD)];
    // What node:http alone reaches against the disk: the ceiling for any Node server on this machine.
    if (peer && dd) reference.push([sizeName(bytes), `${NODE_PEER}/${DD} MiB/s`, fmt(spread(ratios(rate(peer), rate(dd))), 2)]);
  }
  console.log('\nRatios per pass, for reference\n' + table(reference, 2));
  const peaks = sizes.map((bytes) => find(bytes, OURS)!.map((r) => r.rssPeak));
  if (sizes.length > 1 && peaks.every((p) => p.every((x) => x !== undefined))) {
    const growth = peaks[peaks.length - 1].map((p, i) => (p! - peaks[0][i]!) / MiB);
    console.log(
      `\nWerkbank peak RSS during the upload: ${sizes.map((b, i) => `${sizeName(b)} file ${cell(peaks[i], MiB, 0)} MiB`).join(', ')}`,
    );
    const limit = AIM_RSS_GROWTH / MiB;
    aims.push({
      what: `peak RSS growth from ${sizeName(sizes[0])} to ${sizeName(largest)}, MiB`,
      value: spread(growth),
      aim: `flat, <= +${limit}`,
      met: (m) => m <= limit,
      digits: 0,
    });
  }
  return judge(aims);
}
