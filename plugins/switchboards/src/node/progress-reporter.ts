import { nodeLive } from './live';
import { SwitchboardsServices } from './switchboards-services';

/** Progress of a running node is written at most this often (ms). */
const PROGRESS_INTERVAL = 500;

/** Reports a running node's progress (a fraction 0..1); stop() drops what is not yet written. */
export interface ProgressReporter {
  (fraction: number): void;
  stop(): void;
}

/** Progress reports of a running node, written (and announced) at most every PROGRESS_INTERVAL ms. */
export function progressReporter(services: SwitchboardsServices, sbId: number, nodeId: number, runId: number): ProgressReporter {
  let last = Date.now();
  let pending: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (pending === undefined) return;
    const pct = Math.round(Math.min(1, Math.max(0, pending)) * 1000) / 10;
    pending = undefined;
    last = Date.now();
    void services.dataSource
      .query(
        `WITH r AS (UPDATE switchboard_noderun SET progress = $3 WHERE id = $2 AND status = 'started' RETURNING node_id)
         UPDATE switchboard_node SET progress = $3 FROM r WHERE switchboard_node.id = $1 AND r.node_id = $1`,
        [nodeId, runId, pct],
      )
      .catch(() => undefined);
    nodeLive(services, undefined, sbId, nodeId, { runinfo: { progress: pct } });
  };
  const report = (fraction: number) => {
    if (!Number.isFinite(fraction)) return;
    pending = fraction;
    if (timer) return;
    timer = setTimeout(flush, Math.max(0, PROGRESS_INTERVAL - (Date.now() - last)));
    timer.unref();
  };
  report.stop = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return report;
}
