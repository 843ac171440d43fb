import {
  Disposable,
  type EntityManager,
  type RegistrySink,
  type StartupHookContribution,
  type StartupHookDescriptor,
  type StartupServices,
} from '@werkbank/sdk/node';
import { deleteMoment, loadMoment } from './moment-store';

const HOUR_MS = 3600 * 1000;
/** Temporary moments that were never approved are removed after this many hours (decision 0011). */
export const TEMPORARY_HOURS = 24;

/** Removes temporary, unapproved moments older than `hours`, each in its own transaction; returns how many. */
export async function sweepTemporaryMoments(
  services: Pick<StartupServices, 'dataSource'>,
  hours = TEMPORARY_HOURS,
): Promise<number> {
  const due = (await services.dataSource.query(
    `SELECT id FROM magazine_moment WHERE temporary AND status <> 'approved' AND created < now() - make_interval(hours => $1) ORDER BY id`,
    [hours],
  )) as { id: number }[];
  for (const { id } of due) {
    await services.dataSource.transaction(async (m: EntityManager) => {
      const moment = await loadMoment(m, id);
      if (moment?.temporary && moment.status !== 'approved') await deleteMoment(m, moment);
    });
  }
  return due.length;
}

/** Start-up hook: sweeps expired temporary moments in the background at start and then hourly. */
export const temporaryMomentSweep: StartupHookContribution = {
  registerStartupHooks(registry: RegistrySink<StartupHookDescriptor>) {
    registry.add({
      id: 'magazine.temporary-moments',
      run(services) {
        const sweep = () =>
          sweepTemporaryMoments(services).then(
            (n) => n && services.log(`Magazine: removed ${n} expired temporary moments`),
            (e: Error) => services.log(`Magazine: sweeping temporary moments failed: ${e.message}`),
          );
        void sweep();
        const timer = setInterval(() => void sweep(), HOUR_MS);
        timer.unref();
        return Disposable.create(() => clearInterval(timer));
      },
    });
  },
};
