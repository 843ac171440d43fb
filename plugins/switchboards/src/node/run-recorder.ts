import { returnedRows, type Row } from '@werkbank/sdk/node';
import { frameLive, nodeLive, switchboardLive } from './live';
import { FINISH_SQL } from './engine-sql';
import type { LocalRuns } from './local-runs';
import type { InputRef } from './run-plan';
import { runFailed } from './run-failed';
import { SwitchboardsServices } from './switchboards-services';
import type { RunMessage } from './run-message';

/** Moments a run read or wrote (its lineage). */
export type Lineage = Array<{ depot_id: number; moment_id: number }>;

/** What a run saw and did, whichever way it ended. */
export interface RunRecord {
  key: string | null;
  inputs: InputRef[];
  parameters: Record<string, unknown>;
  reads: Lineage;
  writes: Lineage;
  logs: string[];
}

export interface RunSuccess extends RunRecord {
  key: string;
  skipped: boolean;
  outputs: Array<{ port: string; frame_id: number; hash: string }>;
  frames: Array<{ frame_id: number; hash: string; size: number; text_repr: string }>;
  contents?: Array<{ hash: string; items: unknown[]; size: number; key_order?: unknown }>;
  /** Files the run stored, recorded for the output frames they landed in (decision 0018). */
  files?: Array<{ frame_id: number; hash: string; mime_type: string; size: number }>;
}

export interface RunFailure extends RunRecord {
  /** The failure in the language of who started the run, and as key and parameters (RunMessage). */
  message: string;
  i18n: RunMessage | null;
  stack: string;
}

/**
 * Writes how a run this process claimed ended. A run aborted or swept meanwhile is no longer this
 * process's: what it produced is dropped. A success remembers the downstream runs it released
 * until takeReleased() hands them on for queueing.
 */
export class RunRecorder {
  /** The runs a finished run released, queued after its statement committed. */
  private readonly released = new Map<number, number[]>();

  constructor(
    private readonly services: SwitchboardsServices,
    private readonly runs: LocalRuns,
  ) {}

  /** The runs that `runId`'s success released (none after a failure), forgotten as they are taken. */
  takeReleased(runId: number): number[] {
    const ready = this.released.get(runId) ?? [];
    this.released.delete(runId);
    return ready;
  }

  /** Finishes the run as a success in one statement (engine-sql FINISH_SQL) and announces it. */
  async succeed(run: Row, r: RunSuccess): Promise<void> {
    const [out] = await this.services.prepared<Row>('switchboard_finish', FINISH_SQL, [
      run.id,
      this.runs.workerId,
      r.key,
      JSON.stringify(r.inputs),
      JSON.stringify(r.parameters),
      JSON.stringify(r.outputs),
      JSON.stringify(r.reads),
      JSON.stringify(r.writes),
      r.logs.join('\n'),
      r.skipped,
      JSON.stringify(r.contents ?? []),
      JSON.stringify(r.frames),
      (run.downstream as number[]) ?? [],
      this.runs.owner,
      JSON.stringify(r.files ?? []),
    ]);
    // Aborted or swept meanwhile: what this run produced is dropped.
    if (!out || !out.mine) return;
    this.released.set(run.id, (out.ready as number[]) ?? []);
    const sbId = run.switchboard_id as number;
    for (const f of r.frames)
      frameLive(this.services, undefined, sbId, f.frame_id, {
        size: f.size,
        text_repr: f.text_repr,
        content_hash: f.hash,
        outdated: false,
      });
    nodeLive(this.services, undefined, sbId, run.node_id as number, {
      status: 'success',
      outdated: false,
      skipped: r.skipped,
      runinfo: { progress: 100, count: out.run_count, exception: '' },
    });
    const sb = out.switchboard as { status: string; progress: number } | null;
    if (sb) switchboardLive(this.services, undefined, sbId, { status: sb.status, progress: { total: Number(sb.progress) } });
  }

  /** Finishes the run as a failure, with what follows from it (runFailed), in one transaction. */
  async fail(run: Row, r: RunFailure): Promise<void> {
    await this.services.dataSource.transaction(async (m) => {
      const [mine] = returnedRows<Row>(
        await m.query(
          `UPDATE switchboard_noderun
              SET status = 'failure', "end" = now(), run_key = $3, inputs = $4, parameters = $5, moments_read = $6,
                  moments_written = $7, log = $8, exception = $9, stacktrace = $10, exception_i18n = $11
            WHERE id = $1 AND status = 'started' AND worker = $2
        RETURNING *`,
          [
            run.id,
            this.runs.workerId,
            r.key,
            JSON.stringify(r.inputs),
            JSON.stringify(r.parameters),
            JSON.stringify(r.reads),
            JSON.stringify(r.writes),
            r.logs.join('\n'),
            r.message,
            r.stack,
            r.i18n ? JSON.stringify(r.i18n) : null,
          ],
        ),
      );
      if (mine) await runFailed(m, this.services, mine, r.message);
    });
  }
}
