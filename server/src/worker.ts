import { configFromEnv } from './config';
import { applyMemoryPolicy } from './memory-policy';
import type { ServerConfig } from '@werkbank/sdk/node';
import { WerkbankServer } from './werkbank-server';
import { stopOnSignals } from './stop-on-signals';

/** Why this configuration cannot run a worker, or undefined when it can. */
function workerConfigProblem(config: ServerConfig): string | undefined {
  if (!config.databaseUrl || config.execution !== 'workers')
    return (
      'A worker takes node runs queued on a PostgreSQL server: start it (and every API server) with ' +
      'DATABASE_URL=postgres://... and EXECUTION=workers.'
    );
  return undefined;
}

/**
 * `npm run worker`: a Werkbank process in the 'worker' role. It opens the same database (running
 * pending migrations, as a server does), loads the plugins and runs their start-up hooks, and takes
 * queued jobs (EXECUTION_CONCURRENCY at a time per job name); it serves no HTTP. Any number of
 * workers may run on any machine that reaches the database. SIGINT/SIGTERM stop it gracefully.
 */
async function main(): Promise<void> {
  applyMemoryPolicy();
  const config = configFromEnv();
  const problem = workerConfigProblem(config);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  const server = new WerkbankServer({ config, role: 'worker' });
  await server.start();
  stopOnSignals(server, (signal) => `${signal}: stopping the worker (running jobs get a few seconds to finish)`);
  // Announced only once the handlers are in place: a supervisor may signal as soon as it reads this.
  console.log(`Werkbank worker started (concurrency ${config.executionConcurrency})`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
