import {
  Disposable,
  returnedRows,
  type RegistrySink,
  type StartupHookContribution,
  type StartupHookDescriptor,
  type StartupServices,
} from '@werkbank/sdk/node';

const DAY_MS = 24 * 3600 * 1000;

/** Days to keep feed entries, from EVENTS_RETENTION_DAYS; undefined keeps them for ever. */
export function retentionDays(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const n = Number(env.EVENTS_RETENTION_DAYS);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Deletes entries older than `days`; returns how many. */
export async function pruneEvents(services: Pick<StartupServices, 'dataSource'>, days: number): Promise<number> {
  return returnedRows(
    await services.dataSource.query(`DELETE FROM werkbank_event WHERE created < now() - make_interval(days => $1) RETURNING id`, [
      days,
    ]),
  ).length;
}

/**
 * Start-up hook: with EVENTS_RETENTION_DAYS set, prunes older feed entries in the background at
 * start and then daily. Never delays start-up.
 */
export const eventRetention: StartupHookContribution = {
  registerStartupHooks(registry: RegistrySink<StartupHookDescriptor>) {
    registry.add({
      id: 'events.retention',
      run(services) {
        const days = retentionDays();
        if (!days) return;
        const prune = () =>
          pruneEvents(services, days).then(
            (n) => n && services.log(`Activity feed: removed ${n} entries older than ${days} days`),
            (e: Error) => services.log(`Activity feed: pruning failed: ${e.message}`),
          );
        void prune();
        const timer = setInterval(() => void prune(), DAY_MS);
        timer.unref();
        return Disposable.create(() => clearInterval(timer));
      },
    });
  },
};
