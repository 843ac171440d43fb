import { configFromEnv } from './config';
import { WerkbankServer } from './werkbank-server';

/** `npm start`: runs Werkbank on the embedded database (or DATABASE_URL) at http://localhost:PORT. */
async function main(): Promise<void> {
  const config = configFromEnv();
  const server = new WerkbankServer({ config });
  await server.start();
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
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    server.close().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
