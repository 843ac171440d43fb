import { Disposable, returnedRows, type Row } from '@werkbank/sdk/node';
import type { LocalRuns } from './local-runs';
import { runFailed } from './run-failed';
import { SwitchboardsServices } from './switchboards-services';

/**
 * Liveness of node runs across processes (decision 0014): this process beats for the runs it
 * executes, and fails the runs of processes that stopped beating.
 */
export class EngineLiveness {
  constructor(
    private readonly services: SwitchboardsServices,
    private readonly runs: LocalRuns,
  ) {}

  private get db() {
    return this.services.dataSource;
  }

  /** Beats, then sweeps, every third of WORKER_TIMEOUT_SECONDS (at least a second apart) until disposed. */
  startHeartbeat(): Disposable {
    const every = Math.max(1000, (this.services.config.workerTimeoutSeconds * 1000) / 3);
    const timer = setInterval(() => {
      void this.beat()
        .then(() => this.sweep(false))
        .catch((e: Error) => this.services.log(`Switchboard heartbeat failed: ${e.message}`));
    }, every);
    timer.unref();
    return Disposable.create(() => clearInterval(timer));
  }

  private async beat(): Promise<void> {
    if (this.runs.stopped) return;
    // Only runs that really execute here beat: one whose handler died is swept after the timeout.
    await this.db.query(
      `UPDATE switchboard_noderun SET heartbeat = now()
        WHERE worker = $1 AND (status = 'waiting' OR (status = 'started' AND id = ANY($2)))`,
      [this.runs.workerId, this.runs.ids()],
    );
  }

  /**
   * Fails runs whose process stopped: no heartbeat for WORKER_TIMEOUT_SECONDS (or, with `all`, every
   * unfinished run: the embedded database at start, where no other process can run them). Each run
   * fails in one transaction with what follows from it (its node, cancelled downstream runs, the
   * execution's counts), so a sweeper that stops half-way leaves no run failed but uncounted, and of
   * concurrent sweepers exactly one takes each run.
   */
  async sweep(all: boolean): Promise<number> {
    if (this.runs.stopped) return 0;
    const timeout = this.services.config.workerTimeoutSeconds;
    const stale = (p: string) => (all ? 'true' : `worker IS NOT NULL AND heartbeat < now() - make_interval(secs => ${p})`);
    const candidates = (await this.db.query(
      `SELECT id FROM switchboard_noderun WHERE status IN ('waiting', 'started') AND (${stale('$1')}) ORDER BY id`,
      all ? [] : [timeout],
    )) as Row[];
    let swept = 0;
    for (const { id } of candidates) {
      const lost = await this.db.transaction(async (m) => {
        const [run] = returnedRows<Row>(
          await m.query(
            `UPDATE switchboard_noderun
                SET status = 'failure', "end" = now(), exception = CASE WHEN status = 'started' THEN $2::text ELSE $3::text END,
                    exception_i18n = jsonb_build_object('key', CASE WHEN status = 'started' THEN 'switchboards:errors.worker_lost'
                                                                    ELSE 'switchboards:errors.server_restart' END, 'params', '{}'::jsonb),
                    stacktrace = 'The process executing this run stopped (no heartbeat).'
              WHERE id = $1 AND status IN ('waiting', 'started') AND (${stale('$4')})
          RETURNING *`,
            [
              id,
              this.services.translate('en', 'switchboards:errors.worker_lost'),
              this.services.translate('en', 'switchboards:errors.server_restart'),
              ...(all ? [] : [timeout]),
            ],
          ),
        );
        if (!run) return false;
        await runFailed(m, this.services, run, String(run.exception));
        return true;
      });
      if (lost) swept++;
    }
    return swept;
  }
}
