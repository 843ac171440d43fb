import { Disposable, returnedRows } from '@werkbank/sdk/node';
import { SwitchboardsServices } from './switchboards-services';

/**
 * Seconds without a new chunk after which an import counts as cut off (a chunk of IMPORT_CHUNK
 * objects commits within seconds even on a busy server).
 */
export const IMPORT_STALE_SECONDS = 300;

/**
 * Deletes switchboards whose import a stopped process left unfinished (and with them their nodes,
 * frames, links and notes): with `since`, every one whose heartbeat is not later (at start on the
 * embedded database, where no other process imports); otherwise those whose heartbeat is older than
 * IMPORT_STALE_SECONDS. Returns how many.
 */
export async function removeInterruptedImports(services: SwitchboardsServices, since?: Date): Promise<number> {
  const rows = await services.dataSource.query(
    since
      ? `DELETE FROM switchboard WHERE import_heartbeat <= $1 RETURNING id`
      : `DELETE FROM switchboard WHERE import_heartbeat < now() - make_interval(secs => $1) RETURNING id`,
    [since ?? IMPORT_STALE_SECONDS],
  );
  return returnedRows(rows).length;
}

/** In the background at start and then every IMPORT_STALE_SECONDS: removeInterruptedImports, logged. */
export function startImportSweep(services: SwitchboardsServices): Disposable {
  const sweep = (since?: Date) => () =>
    void removeInterruptedImports(services, since)
      .then((n) => n && services.log(`Switchboards: removed ${n} switchboards whose import a stopped server left unfinished`))
      .catch((e: Error) => services.log(`Switchboards: import sweep failed: ${e.message}`));
  sweep(services.config.databaseUrl ? undefined : new Date())();
  const timer = setInterval(sweep(), IMPORT_STALE_SECONDS * 1000);
  timer.unref();
  return Disposable.create(() => clearInterval(timer));
}
