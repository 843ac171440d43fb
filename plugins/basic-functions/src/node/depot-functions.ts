import {
  inject,
  injectable,
  type FrameItems,
  type FunctionContribution,
  type FunctionDescriptor,
  type RegistrySink,
} from '@werkbank/sdk/node';
import { broadcastLength, checkpoint, failure, itemsOf, paramOf } from './frame-items';
import { DepotAccess } from '@werkbank/plugin-magazine/api';

const MODES = ['replace', 'append'] as const;

/** A depot item's reference for DepotAccess: its address (`/api/v1/depot/3/`) or id. */
function depotRef(item: FrameItems[number], i: number): string | number {
  const value = item.value;
  if ((typeof value === 'string' && value.trim()) || typeof value === 'number') return value;
  throw failure('not_a_depot', { item: `depot[${i}]` });
}

/**
 * Reading and writing depots through the DepotAccess service (bound by the Magazine), as the
 * user who runs the switchboard. Reads and writes are recorded for the run's lineage, and a
 * written moment names the node run.
 */
@injectable()
export class DepotFunctions implements FunctionContribution {
  @inject(DepotAccess) protected readonly depots!: DepotAccess;

  readonly read: FunctionDescriptor = {
    id: 'depot.read',
    version: '1',
    verbose_name: { de: 'Depot lesen', en: 'Read depot' },
    doc: {
      de: 'Die Daten des Depots im freigegebenen Moment, oder im Moment moment, wenn er angegeben ist. Mehrere Depots werden nacheinander gelesen.',
      en: 'The datums of the depot at its approved moment, or at the moment given in moment. Several depots are read one after the other.',
    },
    inputs: [
      { name: 'depot', content_type: 'depot' },
      { name: 'moment', content_type: 'int', is_optional: true },
    ],
    outputs: [{ name: 'datums', content_type: 'any' }],
    run: async (inputs, ctx) => {
      const depots = itemsOf(inputs, 'depot');
      const moments = itemsOf(inputs, 'moment');
      const n = moments.length ? broadcastLength({ depot: depots, moment: moments }) : depots.length;
      const datums: FrameItems = [];
      for (let i = 0; i < n; i++) {
        await checkpoint(ctx, i, n);
        const depot = depotRef(depots.length === 1 ? depots[0] : depots[i], i);
        const moment = moments.length ? (moments.length === 1 ? moments[0] : moments[i]).value : undefined;
        if (moment !== undefined && moment !== null && !Number.isInteger(moment))
          throw failure('not_an_integer', { item: `moment[${i}]` });
        const snapshot = await this.depots.read(ctx.user, depot, (moment as number | null | undefined) ?? undefined);
        ctx.recordRead({ depot_id: snapshot.depot_id, moment_id: snapshot.moment_id });
        ctx.log(`read ${snapshot.items.length} datums of depot ${snapshot.depot_id} at moment ${snapshot.moment_id}`);
        for (const item of snapshot.items) datums.push(item);
      }
      return { datums };
    },
  };

  readonly store: FunctionDescriptor = {
    id: 'depot.store',
    version: '1',
    verbose_name: { de: 'In Depot speichern', en: 'Store in depot' },
    doc: {
      de: 'Schreibt die Daten als neuen Moment in das Depot: replace ersetzt seinen Inhalt (Standard), append hängt an. Der Moment ist abgeschlossen und kann freigegeben werden. Features speichern Depots in WGS 84 (EPSG:4326, wie GeoJSON); Features in einem anderen System werden abgelehnt – projizieren Sie sie vorher um.',
      en: 'Writes the datums into the depot as a new moment: replace replaces its content (default), append adds to it. The moment is final and can be approved. Depots store features in WGS 84 (EPSG:4326, as GeoJSON does); features in another CRS are refused – reproject them first.',
    },
    inputs: [
      { name: 'depot', content_type: 'depot' },
      { name: 'datums', content_type: 'any' },
      { name: 'mode', content_type: 'string', is_optional: true, default_value: { value: 'replace' } },
    ],
    outputs: [{ name: 'moment', content_type: 'int' }],
    run: async (inputs, ctx) => {
      const depots = itemsOf(inputs, 'depot');
      if (depots.length !== 1) throw failure('parameter_single', { port: 'depot', count: depots.length });
      const mode = paramOf(inputs, 'mode', 'replace');
      if (!MODES.includes(mode as (typeof MODES)[number])) throw failure('invalid_mode', { mode: String(mode) });
      const datums = itemsOf(inputs, 'datums');
      ctx.signal.throwIfAborted();
      const written = await this.depots.write(ctx.user, depotRef(depots[0], 0), datums, {
        nodeRunId: ctx.nodeRunId,
        mode: mode as (typeof MODES)[number],
        lang: ctx.lang,
      });
      ctx.recordWrite({ depot_id: written.depot_id, moment_id: written.moment_id });
      ctx.log(`wrote ${datums.length} datums to depot ${written.depot_id} as moment ${written.moment_id}`);
      return { moment: [{ value: written.moment_id }] };
    },
  };

  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void {
    registry.add(this.read);
    registry.add(this.store);
  }
}
