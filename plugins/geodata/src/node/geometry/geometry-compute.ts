import type { FunctionRunContext, WorkerPool } from '@werkbank/sdk/node';
import { GEOMETRY_TASKS, type GeometryTaskName } from './geometry-tasks';

type Task<N extends GeometryTaskName> = (typeof GEOMETRY_TASKS)[N];

/**
 * Runs a task of geometry-tasks.ts for a function run: in production in the server's WorkerPool
 * (off the event loop, under the run's abort signal and the pool's per-task time limit, 408
 * `time_limit` past it); in unit tests in the calling thread.
 */
export type GeometryCompute = <N extends GeometryTaskName>(
  name: N,
  input: Parameters<Task<N>>[0],
  ctx: FunctionRunContext,
) => Promise<ReturnType<Task<N>>>;

const TASK_MODULE = new URL('./geometry-tasks.ts', import.meta.url).href;

/** Computes in the WorkerPool's threads. */
export function poolCompute(pool: WorkerPool): GeometryCompute {
  return (name, input, ctx) => pool.run({ module: TASK_MODULE, name }, input, { signal: ctx.signal });
}

/** Computes in the calling thread (unit tests of the functions). */
export const inlineCompute: GeometryCompute = async (name, input, ctx) => {
  ctx.signal.throwIfAborted();
  return (GEOMETRY_TASKS[name] as (input: unknown) => ReturnType<Task<typeof name>>)(input);
};
