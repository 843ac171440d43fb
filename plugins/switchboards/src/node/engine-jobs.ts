import { SwitchboardsServices } from './switchboards-services';

/** The job that executes one node run (in the server, or in worker processes). */
export const NODE_RUN_JOB = 'switchboard_noderun';
/** Bus channel telling every process to stop the runs of an aborted execution. */
export const ABORT_CHANNEL = 'werkbank_switchboard_abort';

/** Queues node runs as jobs; `force` runs them even when their key is unchanged. */
export async function queueRuns(services: SwitchboardsServices, runIds: number[], force: boolean): Promise<void> {
  for (const id of runIds) await services.jobs.send(NODE_RUN_JOB, { run_id: id, force });
}
