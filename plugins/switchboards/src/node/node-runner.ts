import {
  canonicalJson,
  ApiError,
  type AuthUser,
  keyOrderOf,
  type FrameItems,
  type KeyOrder,
  type FunctionDescriptor,
  type FunctionInputs,
  type FunctionOutputs,
  type Row,
  type StoredFileOptions,
} from '@werkbank/sdk/node';
import { Readable } from 'node:stream';
import { hashText, orderedItems, textRepr } from './frame-content';
import { nodeLive } from './live';
import type { NodePort } from './links';
import { CLAIM_SQL } from './engine-sql';
import {
  functionInputs,
  nodeLinks,
  runInputs,
  runKey,
  unchanged,
  type InputRef,
  type NodeLink,
  type PreviousRun,
} from './run-plan';
import { queueRuns } from './engine-jobs';
import type { LocalRuns } from './local-runs';
import { NodeRunError } from './node-run-error';
import { runMessageOf } from './run-message';
import { RunRecorder, type RunRecord } from './run-recorder';
import { callFunction } from './function-call';
import { progressReporter } from './progress-reporter';
import { frameFileUrl } from './frame-file-records';
import { SwitchboardsServices } from './switchboards-services';

/** Longest log a node run keeps (characters). */
const LOG_LIMIT = 200_000;
/** Most items one output of a run may hold (its bytes: config.outputMaxBytes). */
const OUTPUT_MAX_ITEMS = 1_000_000;
/** How often the files a running function stored are held again for the blob sweep (ms; its grace is an hour). */
const HOLD_REFRESH_MS = 10 * 60 * 1000;
/** How long a loaded user is reused for the runs of one process (ms). */
const USER_CACHE_MS = 5000;

/** What executing a node's function needs besides the run and its record. */
interface NodeCall {
  controller: AbortController;
  links: NodeLink[];
  lang: string;
  user: AuthUser;
}

/**
 * Executes one queued node run (the job handler, decision 0014): claims it, skips it when nothing
 * changed, calls its function under the run's abort, records the outcome and queues the runs it
 * released.
 */
export class NodeRunner {
  private readonly recorder: RunRecorder;
  private readonly users = new Map<number, { user: AuthUser | undefined; at: number }>();

  constructor(
    private readonly services: SwitchboardsServices,
    private readonly runs: LocalRuns,
  ) {
    this.recorder = new RunRecorder(services, runs);
  }

  /** Executes one queued run; throws once the engine has stopped (the job is retried elsewhere). */
  async runJob(runId: number, force: boolean): Promise<void> {
    if (this.runs.stopped) throw new Error('The engine has stopped.');
    const [run] = await this.services.prepared<Row>('switchboard_claim', CLAIM_SQL, [runId, this.runs.workerId]);
    if (!run) return;
    const controller = this.runs.add(run.id, run.execution_id as number);
    // What the run saw and did so far; a failure records it as far as it got.
    const record: RunRecord = { key: null, inputs: [], parameters: {}, reads: [], writes: [], logs: [] };
    const user = await this.user(run.user_id as number | null);
    const lang = user?.language ?? 'en';
    try {
      if (!user) throw new NodeRunError('switchboards:errors.run_user_missing');
      const fn = this.services.functions.get(String(run.func));
      if (!fn) throw new NodeRunError('switchboards:errors.unknown_function', { name: String(run.func) });
      if (fn.superuser_required && !user.isSuperuser)
        throw new NodeRunError('switchboards:errors.superuser_function', { name: fn.id });
      const ports = run.ports as NodePort[];
      const links = nodeLinks(run.links as Array<Record<string, unknown>>);
      if (run.replay_of) {
        record.inputs = run.inputs as InputRef[];
        record.parameters = (run.parameters as Record<string, unknown>) ?? {};
      } else {
        const planned = runInputs(ports, links);
        if (planned.missing) throw new NodeRunError('switchboards:errors.input_missing', { name: planned.missing });
        record.inputs = planned.inputs;
        record.parameters = planned.parameters;
      }
      const key = (record.key = runKey(fn, record.parameters, record.inputs));
      if (!force && !run.replay_of && unchanged(run.prev as PreviousRun | null, key, links)) {
        const prev = run.prev as PreviousRun;
        await this.recorder.succeed(run, { ...record, key, skipped: true, outputs: prev.outputs ?? [], frames: [] });
      } else {
        await this.execute(run, fn, { ...record, key }, { controller, links, lang, user });
      }
    } catch (e) {
      const err = e as Error;
      const i18n = runMessageOf(e);
      const message =
        e instanceof NodeRunError || e instanceof ApiError
          ? this.services.translate(lang, e.key, e.params)
          : err?.message || String(e);
      await this.recorder.fail(run, { ...record, message, i18n, stack: err?.stack ?? message });
    } finally {
      this.runs.delete(run.id);
    }
    // A forced execution stays forced for the runs it releases.
    await queueRuns(this.services, this.recorder.takeReleased(run.id), force);
  }

  private async user(id: number | null): Promise<AuthUser | undefined> {
    if (!id) return undefined;
    const hit = this.users.get(id);
    if (hit && Date.now() - hit.at < USER_CACHE_MS) return hit.user;
    const user = await this.services.loadUser(id);
    this.users.set(id, { user, at: Date.now() });
    return user;
  }

  /** Runs the node's function on its inputs and stores what it returned. */
  private async execute(run: Row, fn: FunctionDescriptor, record: RunRecord & { key: string }, c: NodeCall): Promise<void> {
    const sbId = run.switchboard_id as number;
    const ports = run.ports as NodePort[];
    const { inputs, parameters } = record;
    nodeLive(this.services, undefined, sbId, run.node_id as number, { status: 'started', runinfo: { progress: 0 } });
    const contents = await this.inputContents(run, inputs);
    const fnInputs = functionInputs(ports, { inputs, parameters }, contents, (port) => {
      throw new NodeRunError('switchboards:errors.content_missing', { name: port });
    });
    const progress = progressReporter(this.services, sbId, run.node_id as number, run.id);
    const stored = new Map<string, StoredFile>();
    // Files stored early in a long run must outlive the blob sweep's grace period until the run ends.
    const holding = setInterval(() => void this.holdStored(stored), HOLD_REFRESH_MS);
    holding.unref();
    try {
      await this.call(run, fn, fnInputs, record, c, { progress, stored, sbId });
    } finally {
      clearInterval(holding);
    }
  }

  /** Calls the function and records its outputs, the files it stored held for the finishing statement. */
  private async call(
    run: Row,
    fn: FunctionDescriptor,
    fnInputs: FunctionInputs,
    record: RunRecord & { key: string },
    c: NodeCall,
    s: { progress: ReturnType<typeof progressReporter>; stored: Map<string, StoredFile>; sbId: number },
  ): Promise<void> {
    const { logs, reads, writes } = record;
    const { controller, links, lang, user } = c;
    const { progress, stored } = s;
    let logLength = 0;
    const outputs = await callFunction(fn, fnInputs, controller, {
      signal: controller.signal,
      progress,
      log: (message: string) => {
        if (logLength >= LOG_LIMIT) return;
        const line = `${new Date().toISOString()} ${message}`.slice(0, LOG_LIMIT - logLength);
        logs.push(line);
        logLength += line.length + 1;
      },
      user,
      nodeRunId: run.id,
      recordRead: (r) => reads.push({ depot_id: r.depot_id, moment_id: r.moment_id }),
      recordWrite: (w) => writes.push({ depot_id: w.depot_id, moment_id: w.moment_id }),
      lang,
      storeFile: (source, file) => this.storeFile(stored, source, file),
    });
    progress.stop();
    await this.holdStored(stored);
    await this.recorder.succeed(run, { ...record, skipped: false, ...this.written(outputs, links, stored) });
  }

  /**
   * Holds the files a run stored for another grace period of the blob sweep (decision 0017:
   * `werkbank_blob_release` renews a candidate), so the sweep cannot take them before the run's
   * statement records them; a failed renewal is logged, the next one tries again.
   */
  private async holdStored(stored: Map<string, StoredFile>): Promise<void> {
    if (!stored.size) return;
    try {
      await this.services.dataSource.query(`SELECT werkbank_blob_release(h) FROM unnest($1::varchar[]) h`, [[...stored.keys()]]);
    } catch (e) {
      this.services.log(`Switchboards: could not hold the files of a run: ${(e as Error).message}`);
    }
  }

  /**
   * Streams a file a function outputs into the blob store (outside any transaction: the store's
   * hold takes its own connection) and returns its datum, which written() addresses per frame.
   */
  private async storeFile(
    stored: Map<string, StoredFile>,
    source: Readable | Buffer | string,
    file: StoredFileOptions,
  ): Promise<Record<string, unknown>> {
    const name = String(file.name ?? '').trim();
    if (!name) throw new NodeRunError('switchboards:errors.stored_file_name');
    const stream = typeof source === 'string' || Buffer.isBuffer(source) ? Readable.from([Buffer.from(source)]) : source;
    const blob = await this.services.blobs.put(stream, { maxBytes: this.services.config.uploadMaxBytes, filename: name });
    const mime_type = file.mime_type || blob.mime;
    stored.set(blob.hash, { hash: blob.hash, mime_type, size: blob.size });
    return { value: name, size: blob.size, mime_type, stored_blob: blob.hash };
  }

  /** The items of the inputs' contents: the claim brought those of the input frames; a replay reads the contents it names. */
  private async inputContents(run: Row, inputs: InputRef[]): Promise<Map<string, FrameItems>> {
    const contents = new Map<string, FrameItems>();
    for (const l of run.links as Array<{ hash: string | null; items?: FrameItems; key_order?: KeyOrder | null }>)
      if (l.hash && l.items) contents.set(l.hash.trim(), orderedItems(l.items, l.key_order));
    const missing = [...new Set(inputs.map((i) => i.hash).filter((h): h is string => !!h && !contents.has(h)))];
    if (missing.length) {
      const rows = await this.services.prepared<{ hash: string; items: FrameItems; key_order: KeyOrder | null }>(
        'switchboard_contents_ordered',
        `SELECT hash, items, key_order FROM switchboard_content WHERE hash = ANY($1)`,
        [missing],
      );
      for (const r of rows) contents.set(r.hash.trim(), orderedItems(r.items, r.key_order));
    }
    return contents;
  }

  /** The contents and frame updates of a run's outputs (each output link gets its port's items). */
  private written(outputs: FunctionOutputs, links: NodeLink[], stored: Map<string, StoredFile>) {
    const contents = new Map<string, { hash: string; items: unknown[]; size: number; key_order: KeyOrder | null }>();
    const frames: Array<{ frame_id: number; hash: string; size: number; text_repr: string }> = [];
    const refs: Array<{ port: string; frame_id: number; hash: string }> = [];
    const files: Array<StoredFile & { frame_id: number }> = [];
    const hashes = new Map<string, string>();
    for (const link of links.filter((l) => !l.is_input)) {
      let items = outputs[link.name] ?? [];
      // Stored files get the address of each frame they land in: that frame's content is its own.
      const addressed = items.some((item) => item && typeof item === 'object' && 'stored_blob' in item);
      if (addressed) items = addressStoredFiles(items, link.frame_id, stored, files);
      let hash = addressed ? undefined : hashes.get(link.name);
      if (!hash) {
        // One output may not outgrow what a frame holds: a run that does fails with the reason.
        const maxBytes = this.services.config.outputMaxBytes;
        const text = items.length > OUTPUT_MAX_ITEMS ? '' : canonicalJson(items);
        if (items.length > OUTPUT_MAX_ITEMS || Buffer.byteLength(text) > maxBytes) {
          throw new NodeRunError('switchboards:errors.output_too_large', {
            port: link.name,
            items: OUTPUT_MAX_ITEMS,
            mb: Math.round((maxBytes / 1024 / 1024) * 100) / 100,
          });
        }
        hash = hashText(text);
        if (!addressed) hashes.set(link.name, hash);
      }
      contents.set(hash, { hash, items, size: items.length, key_order: keyOrderOf(items) });
      frames.push({ frame_id: link.frame_id, hash, size: items.length, text_repr: textRepr(items, link.type, this.services) });
      refs.push({ port: link.name, frame_id: link.frame_id, hash });
    }
    return { outputs: refs, frames, contents: [...contents.values()], files };
  }
}

/** A file a run stored through storeFile: the blob and how it is served. */
interface StoredFile {
  hash: string;
  mime_type: string;
  size: number;
}

/**
 * The items with each stored file datum addressed for frame `frameId` (download and embed
 * address, as an upload into that frame gets) and the file noted for its record; a datum naming a
 * blob this run did not store is dropped, so a function cannot hand out other blobs.
 */
function addressStoredFiles(
  items: FrameItems,
  frameId: number,
  stored: Map<string, StoredFile>,
  files: Array<StoredFile & { frame_id: number }>,
): FrameItems {
  const out: FrameItems = [];
  for (const item of items) {
    if (!item || typeof item !== 'object' || !('stored_blob' in item)) {
      out.push(item);
      continue;
    }
    const { stored_blob, ...fields } = item;
    const file = stored.get(String(stored_blob));
    if (!file) continue;
    const url = frameFileUrl(frameId, file.hash);
    out.push({
      ...fields,
      size: file.size,
      mime_type: file.mime_type,
      download_url: `${url}download/`,
      embed_url: `${url}embed/`,
    });
    files.push({ ...file, frame_id: frameId });
  }
  return out;
}
