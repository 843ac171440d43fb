/**
 * bench/upload: a 256 MiB and a 1 GiB file through Werkbank's upload calls (upload-reset, then a
 * streamed multipart upload-file), against a minimal node:http server that streams the same body
 * into a file and fsyncs it, and against `dd bs=1M conv=fdatasync`, all in one temporary folder on
 * one disk, in the same run. Werkbank and the peer run as child processes so their resident
 * memory can be read from /proc. `npm run bench:upload`; see bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { TestClient } from '@werkbank/testing/node';
import { readCpuMs, readRss, resetPeak, sampleRss, startChild, type Child } from './child-process';
import { postMultipart } from './upload-client';
import { DD, NODE_PEER, OURS, mib, mibPerSecond, printUploadReport, type UploadRun } from './upload-report';
import { alternating, banner, runBench, SMOKE } from './bench-mode';

const ROOT = resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;
/** Smallest first: the peak RSS of the largest is compared with the smallest's. Smoke: 4 and 16 MiB. */
const SIZES = SMOKE ? [4 * MiB, 16 * MiB] : [256 * MiB, 1024 * MiB];
const ADMIN = 'admin';
const ADMIN_PASSWORD = `bench-${randomBytes(6).toString('hex')}`;
/** Where the temporary folder goes (the disk under test): BENCH_DIR, else the system's temp folder. */
const BASE_DIR = process.env.BENCH_DIR ?? os.tmpdir();
const BLOB_WRITER = join(ROOT, 'server/src/blob/hashing-file-writer.ts');

/** A file of `bytes` (a multiple of 1 MiB): one random MiB repeated, each copy stamped with its number; fsynced. */
async function makeFile(path: string, bytes: number): Promise<void> {
  const block = randomBytes(MiB);
  const file = await open(path, 'wx');
  try {
    for (let i = 0; i < bytes / MiB; i++) {
      block.writeUInt32LE(i, 0);
      await file.write(block);
    }
    // Flushed now, so the kernel's write-back of the input does not run during the measurements.
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Runs one upload against a server child: its RSS just before, its peak during the upload, and
 * the CPU time the server and this process (the client) used meanwhile.
 */
async function measured(child: Child, upload: () => Promise<number>): Promise<Omit<UploadRun, 'bytes' | 'target'>> {
  const exact = resetPeak(child.pid);
  const rssBefore = readRss(child.pid).current;
  const serverCpu = readCpuMs(child.pid);
  const clientCpu = process.cpuUsage();
  const sampler = sampleRss(child.pid);
  let ms: number;
  let sampled: number;
  try {
    ms = await upload();
  } finally {
    sampled = sampler.stop();
  }
  const client = process.cpuUsage(clientCpu);
  return {
    ms,
    rssBefore,
    rssPeak: exact ? Math.max(sampled, readRss(child.pid).peak) : sampled,
    serverCpuMs: readCpuMs(child.pid) - serverCpu,
    clientCpuMs: (client.user + client.system) / 1000,
  };
}

async function uploadToWerkbank(
  base: string,
  client: TestClient,
  depot: string,
  file: string,
  bytes: number,
  pass: number,
): Promise<number> {
  const reset = await client.post('/magazine/upload-reset/', { depot });
  if (reset.status !== 200) throw new Error(`upload-reset answered ${reset.status}: ${JSON.stringify(reset.body)}`);
  const reply = await postMultipart(
    `${base}/magazine/upload-file/${reset.body.upload_id}/`,
    // A name per pass: the depot refuses a second file of the same name.
    { path: `bench-${mib(bytes)}MiB-${pass + 1}.bin`, file, bytes },
    {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrftoken': client.csrfToken ?? '',
      origin: base,
    },
  );
  if (reply.status !== 201 || reply.body?.file?.size !== bytes) {
    throw new Error(`Werkbank upload answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
  return reply.ms;
}

async function uploadToPeer(base: string, file: string, bytes: number): Promise<number> {
  const reply = await postMultipart(`${base}/`, { path: `bench-${mib(bytes)}MiB.bin`, file, bytes });
  // The peer stores the whole body: the file plus a few hundred bytes of multipart framing.
  if (reply.status !== 201 || !(reply.body?.bytes > bytes))
    throw new Error(`peer answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.ms;
}

/** Wall time of `dd if=file of=out bs=1M conv=fdatasync`. */
function runDd(file: string, out: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const dd = spawn('dd', [`if=${file}`, `of=${out}`, 'bs=1M', 'conv=fdatasync', 'status=none'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    dd.stderr.on('data', (c: Buffer) => (err += c.toString()));
    dd.once('error', reject);
    dd.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`dd exited ${code}: ${err}`)),
    );
  });
}

/** What the blob store does about durability, read from its source, so the output says whether the comparison is fair. */
function fsyncNote(): string {
  const source = readFileSync(BLOB_WRITER, 'utf8');
  return /_final\([^)]*\)[^{]*\{[^}]*\.sync\(\)/.test(source)
    ? 'Werkbank fsyncs each blob before it counts as stored (FileHandle.sync in _final of server/src/blob/hashing-file-writer.ts), ' +
        'like the node peer (fsync) and dd (fdatasync): all three end with the bytes on disk.'
    : 'NOTE: server/src/blob/hashing-file-writer.ts no longer syncs in _final, so Werkbank may not fsync its blobs while the ' +
        'node peer and dd do: Werkbank gets the page cache for free and the ratios flatter it.';
}

async function main(): Promise<void> {
  banner('bench/upload', `${os.cpus().length} CPUs · ${os.cpus()[0]?.model ?? ''}`);
  const dir = await mkdtemp(join(BASE_DIR, 'werkbank-bench-upload-'));
  const children: Child[] = [];
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await Promise.all(children.map((c) => c.stop()));
      await rm(dir, { recursive: true, force: true });
    })());
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    console.log(`  folder: ${dir}`);
    await Promise.all(['input', 'werkbank', 'peer'].map((d) => mkdir(join(dir, d))));
    const files = new Map<number, string>();
    for (const bytes of SIZES) {
      const path = join(dir, 'input', `${mib(bytes)}MiB.bin`);
      const started = performance.now();
      await makeFile(path, bytes);
      files.set(bytes, path);
      console.log(`  wrote the ${mib(bytes)} MiB input in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }

    const env = { ...process.env };
    delete env.DATABASE_URL;
    const werkbank = await startChild(['--import', 'tsx', 'server/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: join(dir, 'werkbank'),
        ADMIN_USERNAME: ADMIN,
        ADMIN_PASSWORD,
        DEV_LICENCE: '1',
      },
      ready: /Werkbank is running at http:\/\/localhost:(\d+)/,
    });
    children.push(werkbank);
    const peer = await startChild(['--import', 'tsx', 'bench/upload-peer-server.ts'], {
      cwd: ROOT,
      env: { ...env, PEER_DIR: join(dir, 'peer') },
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    });
    children.push(peer);
    const ours = `http://127.0.0.1:${werkbank.ready}`;
    const peerBase = `http://127.0.0.1:${peer.ready}`;
    console.log(
      `  Werkbank (pid ${werkbank.pid}) started; peak RSS so far ${mib(readRss(werkbank.pid).peak)} MiB (boot: PGlite, migrations)`,
    );

    const client = new TestClient(ours);
    await client.login(ADMIN, ADMIN_PASSWORD);
    const depot = await client.post('/api/v1/depot/', { name: 'bench uploads', content_type: 'file' });
    if (depot.status !== 201) throw new Error(`creating a file depot answered ${depot.status}: ${JSON.stringify(depot.body)}`);

    const targets: Record<string, (file: string, bytes: number, pass: number) => Promise<UploadRun>> = {
      [OURS]: async (file, bytes, pass) => ({
        bytes,
        target: OURS,
        ...(await measured(werkbank, () => uploadToWerkbank(ours, client, depot.body.resource_uri, file, bytes, pass))),
      }),
      [NODE_PEER]: async (file, bytes) => ({
        bytes,
        target: NODE_PEER,
        ...(await measured(peer, () => uploadToPeer(peerBase, file, bytes))),
      }),
      [DD]: async (file, bytes) => ({ bytes, target: DD, ms: await runDd(file, join(dir, `dd-${mib(bytes)}MiB.out`)) }),
    };
    // Every pass uploads each size with each target; who goes first alternates from pass to pass
    // (and between the sizes of a pass), so a drift (a busy neighbour) does not always hit the same one.
    const cells = SIZES.flatMap((bytes) => [OURS, NODE_PEER, DD].map((target) => `${bytes}|${target}`));
    const results = await alternating(cells, async (cell, pass) => {
      const [bytes, target] = [Number(cell.split('|')[0]), cell.split('|')[1]];
      const run = await targets[target](files.get(bytes)!, bytes, pass);
      console.log(
        `  pass ${pass + 1}, ${mib(bytes)} MiB, ${target}: ${(run.ms / 1000).toFixed(1)} s, ${mibPerSecond(run).toFixed(0)} MiB/s`,
      );
      return run;
    });
    console.log(`\n${fsyncNote()}`);
    printUploadReport(cells.map((cell) => results.get(cell)!));
  } finally {
    await cleanup();
  }
}

runBench('bench/upload', main);
