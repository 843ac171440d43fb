import type { WerkbankServer } from './werkbank-server';

/** SIGINT and SIGTERM close the server gracefully once, then end the process (0, or 1 on an error). */
export function stopOnSignals(server: WerkbankServer, message: (signal: string) => string): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(message(signal));
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
