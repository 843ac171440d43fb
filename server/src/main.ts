import { configFromEnv } from './config';
import { WerkbankServer } from './werkbank-server';
import { stopOnSignals } from './stop-on-signals';
import { applyMemoryPolicy } from './memory-policy';

/** `npm start`: runs Werkbank on the embedded database (or DATABASE_URL) at http://localhost:PORT. */
async function main(): Promise<void> {
  applyMemoryPolicy();
  const config = configFromEnv();
  const server = new WerkbankServer({ config });
  await server.start();
  // Before anything is announced: a supervisor may signal as soon as it reads the first line.
  stopOnSignals(server, (signal) => `${signal}: shutting down`);
  const port = await server.listen(config.port, config.host);
  const url = `http://localhost:${port}`;
  console.log(
    `\nWerkbank is running at ${url} (database: ${server.db.kind === 'embedded' ? `embedded, in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  if (server.generatedAdminPassword) {
    console.log(`Log in as '${config.adminUsername}' with the password: ${server.generatedAdminPassword}`);
    console.log('This password is shown only once. Set ADMIN_PASSWORD to choose a new one at the next start.');
  } else {
    console.log(
      `Log in as '${config.adminUsername}' with the password from ADMIN_PASSWORD or the one printed at the first start.`,
    );
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
