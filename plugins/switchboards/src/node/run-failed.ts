import { returnedRows, type EntityManager, type Row } from '@werkbank/sdk/node';
import { reachable } from './graph';
import { nodeLive, switchboardLive } from './live';
import { SwitchboardsServices } from './switchboards-services';

/**
 * After a run failed (in `m`, the transaction that failed it, `run` as it is stored now, with its
 * `exception` and `exception_i18n`): marks its node, cancels everything
 * downstream in its execution, and counts them; the execution (and switchboard) end as failure when
 * nothing else runs.
 */
export async function runFailed(m: EntityManager, services: SwitchboardsServices, run: Row, message: string): Promise<void> {
  const sbId = run.switchboard_id as number;
  await m.query(
    `UPDATE switchboard_node SET status = 'failure', status_changed = now(), exception = $2, run_count = run_count + 1, last_run_id = $3,
            exception_i18n = $4
      WHERE id = $1`,
    [run.node_id, message, run.id, run.exception_i18n ? JSON.stringify(run.exception_i18n) : null],
  );
  nodeLive(services, m, sbId, run.node_id as number, { status: 'failure', runinfo: { exception: message } });
  let cancelled = 0;
  if (((run.downstream as number[]) ?? []).length) {
    const all = (await m.query(`SELECT node_id, downstream FROM switchboard_noderun WHERE execution_id = $1`, [
      run.execution_id,
    ])) as Row[];
    const edges = new Map(all.map((r) => [r.node_id as number, new Set((r.downstream as number[]) ?? [])]));
    const upstream = { key: 'switchboards:errors.upstream_failed', params: { name: String(run.func ?? '') } };
    const note = services.translate('en', upstream.key, upstream.params);
    const gone = returnedRows<Row>(
      await m.query(
        `UPDATE switchboard_noderun SET status = 'cancelled', "end" = now(), exception = $3, exception_i18n = $4
          WHERE execution_id = $1 AND node_id = ANY($2) AND status = 'waiting' RETURNING node_id`,
        [run.execution_id, [...reachable([run.node_id as number], edges)], note, JSON.stringify(upstream)],
      ),
    );
    cancelled = gone.length;
    if (gone.length) {
      await m.query(`UPDATE switchboard_node SET status = 'initialized', status_changed = now() WHERE id = ANY($1)`, [
        gone.map((g) => g.node_id),
      ]);
      for (const g of gone) nodeLive(services, m, sbId, g.node_id as number, { status: 'initialized' });
    }
  }
  const [exec] = returnedRows<Row>(
    await m.query(
      `UPDATE switchboard_execution SET done = done + $2, failed = failed + 1,
              status = CASE WHEN done + $2 >= total THEN 'failure' ELSE status END,
              "end" = CASE WHEN done + $2 >= total THEN now() ELSE "end" END
        WHERE id = $1 AND status = 'started' RETURNING *`,
      [run.execution_id, 1 + cancelled],
    ),
  );
  if (!exec) return;
  const progress = Number(exec.total) ? Math.round((Number(exec.done) / Number(exec.total)) * 1000) / 10 : 100;
  const status = exec.status === 'failure' ? 'failure' : undefined;
  await m.query(`UPDATE switchboard SET progress = $2, status = coalesce($3, status) WHERE id = $1 AND execution_id = $4`, [
    sbId,
    progress,
    status ?? null,
    exec.id,
  ]);
  switchboardLive(services, m, sbId, { ...(status ? { status } : {}), progress: { total: progress } });
}
