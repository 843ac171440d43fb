import {
  ApiError,
  Disposable,
  DisposableCollection,
  inject,
  injectable,
  returnedRows,
  type ResourceRequest,
  type Row,
} from '@werkbank/sdk/node';
import { nextRun } from '../common/recurrence';
import { Engine, type ExecuteOptions, type Trigger } from './engine';
import type { NodePort } from './links';
import { SwitchboardsServices } from './switchboards-services';

/** Bus channel on which the Magazine announces approved moments. */
export const MOMENT_APPROVED_CHANNEL = 'werkbank_moment_approved';
/**
 * Bus channel on which plugins ask for an automatic run (payload `switchboard_id`, optional
 * `node_id`): a live data source they watch has news (decision 0021). Every server hears it.
 */
export const RUN_REQUEST_CHANNEL = 'werkbank_switchboard_run_request';
/** How often due periodic switchboards are looked for (ms). */
const TICK_INTERVAL = 15_000;

/** Depot ids a value refers to: an id or a depot address (`/api/v1/depot/3/`). */
function depotIdOf(value: unknown): number | undefined {
  const m = /^(?:\/api\/v1\/depot\/)?(\d{1,9})\/?$/.exec(String(value ?? '').trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * Automatic and periodic execution (spec 002 §5). Automatic: a switchboard marked automatic runs
 * when a depot it reads (a depot parameter or frame, or a depot its runs read) gets a newly approved
 * moment — once per moment, even with several servers. Periodic: due switchboards run as the user
 * who scheduled them; the next run is computed from the rule; a run missed while no server ran happens once
 * at the next start.
 */
@injectable()
export class Scheduler implements Disposable {
  private readonly toDispose = new DisposableCollection();

  constructor(
    @inject(SwitchboardsServices) private readonly services: SwitchboardsServices,
    @inject(Engine) private readonly engine: Engine,
  ) {}

  start(): void {
    if (this.services.role !== 'server') return;
    this.toDispose.push(
      this.services.bus.subscribe(MOMENT_APPROVED_CHANNEL, (msg) => {
        void this.onApproved(Number(msg.depot_id), Number(msg.moment_id)).catch((e: Error) =>
          this.services.log(`Automatic switchboard run failed: ${e.message}`),
        );
      }),
    );
    this.toDispose.push(
      this.services.bus.subscribe(RUN_REQUEST_CHANNEL, (msg) => {
        const node = msg.node_id === undefined || msg.node_id === null ? undefined : Number(msg.node_id);
        void this.onRunRequest(Number(msg.switchboard_id), node).catch((e: Error) =>
          this.services.log(`Requested switchboard run failed: ${e.message}`),
        );
      }),
    );
    const tick = () => void this.tick().catch((e: Error) => this.services.log(`Periodic switchboard run failed: ${e.message}`));
    const timer = setInterval(tick, TICK_INTERVAL);
    timer.unref();
    this.toDispose.push(Disposable.create(() => clearInterval(timer)));
    tick();
  }

  dispose(): void {
    this.toDispose.dispose();
  }

  /** Switchboards marked automatic that read the depot. */
  async readersOf(depotId: number): Promise<number[]> {
    const db = this.services.dataSource;
    const candidates = (await db.query(`SELECT id FROM switchboard WHERE automatic AND scheduled_by IS NOT NULL`)) as Row[];
    if (!candidates.length) return [];
    const ids = candidates.map((c) => c.id);
    const out = new Set<number>();
    const nodes = (await db.query(`SELECT switchboard_id, ports FROM switchboard_node WHERE switchboard_id = ANY($1)`, [
      ids,
    ])) as Row[];
    for (const n of nodes) {
      const ports = n.ports as NodePort[];
      if (ports.some((p) => p.is_input && p.content_type === 'depot' && depotIdOf(p.default_value?.value) === depotId))
        out.add(n.switchboard_id as number);
    }
    const frames = (await db.query(
      `SELECT f.switchboard_id, c.items FROM switchboard_frame f JOIN switchboard_content c ON c.hash = f.content_hash
        WHERE f.switchboard_id = ANY($1) AND f.content_type = 'depot'`,
      [ids],
    )) as Row[];
    for (const f of frames) {
      if ((f.items as Array<{ value?: unknown }>).some((i) => depotIdOf(i.value) === depotId))
        out.add(f.switchboard_id as number);
    }
    const lineage = (await db.query(
      `SELECT DISTINCT switchboard_id FROM switchboard_noderun
        WHERE switchboard_id = ANY($1) AND moments_read @> jsonb_build_array(jsonb_build_object('depot_id', $2::int))`,
      [ids, depotId],
    )) as Row[];
    for (const l of lineage) out.add(l.switchboard_id as number);
    return [...out].sort((a, b) => a - b);
  }

  /** Runs the automatic readers of a depot for a newly approved moment (each once per moment). */
  async onApproved(depotId: number, momentId: number): Promise<number[]> {
    const started: number[] = [];
    for (const id of await this.readersOf(depotId)) {
      const claimed = returnedRows(
        await this.services.dataSource.query(
          `INSERT INTO switchboard_trigger (switchboard_id, moment_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING switchboard_id`,
          [id, momentId],
        ),
      );
      if (!claimed.length) continue;
      if (await this.runAsScheduler(id, 'automatic')) started.push(id);
    }
    return started;
  }

  /**
   * Runs a switchboard still marked automatic as the user who scheduled it, on a plugin's request.
   * With `node`, that node and everything downstream run, forced: the node's inputs are unchanged,
   * but what it reads (a live service) is not. Without, every node runs, forced.
   */
  async onRunRequest(id: number, node?: number): Promise<boolean> {
    const [sb] = (await this.services.dataSource.query(`SELECT automatic FROM switchboard WHERE id = $1`, [id])) as Row[];
    if (!sb?.automatic) return false;
    return this.runAsScheduler(id, 'automatic', node === undefined ? { force: true } : { node, fromHere: true, force: true });
  }

  /** Runs due periodic switchboards and moves their next run on; returns the ids started. */
  async tick(now = new Date()): Promise<number[]> {
    const due = await this.services.dataSource.transaction(async (m) => {
      const rows = (await m.query(
        `SELECT id, periodic_execution_rule FROM switchboard
          WHERE periodic_execution AND next_run IS NOT NULL AND next_run <= $1 FOR UPDATE SKIP LOCKED`,
        [now],
      )) as Row[];
      for (const r of rows) {
        let next: Date | null;
        try {
          next = nextRun(String(r.periodic_execution_rule), now);
        } catch {
          // A rule that no longer parses stops the schedule instead of failing every tick.
          next = null;
        }
        await m.query(`UPDATE switchboard SET next_run = $2 WHERE id = $1`, [r.id, next]);
      }
      return rows.map((r) => r.id as number);
    });
    const started: number[] = [];
    for (const id of due) if (await this.runAsScheduler(id, 'periodic')) started.push(id);
    return started;
  }

  /**
   * Runs the switchboard as the user who scheduled it, when that user may still run it (a grant
   * taken back, a deactivated account: the run is skipped and logged).
   */
  private async runAsScheduler(
    id: number,
    trigger: Trigger,
    options: Pick<ExecuteOptions, 'node' | 'fromHere' | 'force'> = {},
  ): Promise<boolean> {
    const [sb] = (await this.services.dataSource.query(`SELECT id, name, scheduled_by FROM switchboard WHERE id = $1`, [
      id,
    ])) as Row[];
    const user = sb?.scheduled_by ? await this.services.loadUser(sb.scheduled_by as number) : undefined;
    const req: ResourceRequest | undefined = user && {
      user,
      t: ((k: string) => k) as unknown as ResourceRequest['t'],
      lang: user.language ?? 'en',
      manager: this.services.dataSource.manager,
      services: this.services.resources,
    };
    const def = this.services.resources.definitions().find((d) => d.kind === 'switchboard')!;
    const row = req && (await this.services.resources.loadReadable(def, id, req));
    if (!user || !req || !row || !(await this.services.resources.mayAccess(def, row, req, 'execute'))) {
      this.services.log(`Switchboard ${id}: the user who scheduled it may no longer run it (${trigger} run skipped).`);
      return false;
    }
    try {
      await this.engine.execute({ switchboardId: id, user, trigger, ...options });
      return true;
    } catch (e) {
      if (e instanceof ApiError) {
        this.services.log(`Switchboard ${id} (${String(sb.name)}): ${trigger} run not started: ${e.code}`);
        return false;
      }
      throw e;
    }
  }
}
