import {
  ApiError,
  Disposable,
  inject,
  injectable,
  type EntityManager,
  type RegistrySink,
  type StartupHookContribution,
  type StartupHookDescriptor,
  type StartupServices,
} from '@werkbank/sdk/node';
import { deleteMoment, loadMoment } from './moment-store';
import { failInterruptedUploads, UPLOAD_STALE_SECONDS } from './interrupted-uploads';
import { discardInterruptedImports } from './staged-import';
import { MagazineServices } from './magazine-services';

const HOUR_MS = 3600 * 1000;
/** Temporary moments that were never approved are removed after this many hours (decision 0011). */
export const TEMPORARY_HOURS = 24;

/**
 * Removes temporary, unapproved moments older than `hours`, each in its own transaction (one that
 * holds other users' edits is kept as a normal moment); returns how many were due.
 */
export async function sweepTemporaryMoments(
  services: Pick<StartupServices, 'dataSource'>,
  hours = TEMPORARY_HOURS,
): Promise<number> {
  const due = (await services.dataSource.query(
    `SELECT id FROM magazine_moment WHERE temporary AND status <> 'approved' AND created < now() - make_interval(hours => $1) ORDER BY id`,
    [hours],
  )) as { id: number }[];
  for (const { id } of due) {
    await skipWhileImporting(
      services.dataSource.transaction(async (m: EntityManager) => {
        const moment = await loadMoment(m, id);
        if (!moment?.temporary || moment.status === 'approved') return;
        // Others' edits that went into the temporary moment (it was the open head) are never
        // thrown away: such a moment becomes a normal one instead.
        const [{ others }] = (await m.query(
          `SELECT EXISTS (SELECT 1 FROM magazine_datum_version WHERE depot_id = $1 AND valid_from = $2
           AND user_id IS DISTINCT FROM $3) AS others`,
          [moment.depot_id, moment.id, moment.user_id],
        )) as { others: boolean }[];
        if (others) await m.query(`UPDATE magazine_moment SET temporary = false WHERE id = $1`, [moment.id]);
        else await deleteMoment(m, moment);
      }),
    );
  }
  return due.length;
}

/** A sweep leaves a depot alone while an import is staged into it (decision 0075); the next sweep takes it. */
async function skipWhileImporting(work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (e) {
    if (!(e instanceof ApiError && e.code === 'depot_importing')) throw e;
  }
}

/**
 * Start-up hook: in the background at start and then hourly, removes expired temporary moments
 * (their blobs go with the server's sweep, decision 0017); at start and every UPLOAD_STALE_SECONDS,
 * fails uploads a stopped process left 'uploading' — at start on the embedded database all of
 * them, as no other process can be uploading. Only on the embedded database it makes start-up
 * wait, to discard the imports a stopped server left staged (decision 0075; usually none).
 */
@injectable()
export class MagazineMaintenance implements StartupHookContribution {
  @inject(MagazineServices) protected readonly services!: MagazineServices;

  registerStartupHooks(registry: RegistrySink<StartupHookDescriptor>): void {
    registry.add({
      id: 'magazine.maintenance',
      run: (startup) => {
        const started = new Date();
        const guarded = (what: () => Promise<void>) => () =>
          void what().catch((e: Error) => startup.log(`Magazine: maintenance failed: ${e.message}`));
        const moments = guarded(async () => {
          const n = await sweepTemporaryMoments(startup);
          if (n) startup.log(`Magazine: removed ${n} expired temporary moments`);
        });
        const uploads = (since?: Date) =>
          guarded(async () => {
            const n = await failInterruptedUploads(this.services, since);
            if (n) startup.log(`Magazine: ${n} uploads were interrupted by a stopped server and are marked failed`);
          });
        const embedded = !this.services.config.databaseUrl;
        const start = () => {
          moments();
          uploads(embedded ? started : undefined)();
          const timers = [setInterval(moments, HOUR_MS), setInterval(uploads(), UPLOAD_STALE_SECONDS * 1000)];
          for (const timer of timers) timer.unref();
          return Disposable.create(() => timers.forEach((timer) => clearInterval(timer)));
        };
        // Imports a stopped server left staged on the embedded database (decision 0075) are
        // discarded before the server answers: their depots refuse writes until then.
        if (embedded) {
          return discardInterruptedImports(startup.dataSource).then((n) => {
            if (n) startup.log(`Magazine: discarded ${n} imports that a stopped server left unfinished`);
            return start();
          });
        }
        return start();
      },
    });
  }
}
