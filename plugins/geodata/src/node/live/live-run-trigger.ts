import type { Disposable, MessageBus } from '@werkbank/sdk/node';

/** The switchboards plugin's channel for run requests (scheduler.ts RUN_REQUEST_CHANNEL, decision 0021). */
export const RUN_REQUEST_CHANNEL = 'werkbank_switchboard_run_request';
/** Statuses a switchboard's execution ends with (its live UPDATE carries them). */
const ENDED = new Set(['success', 'failure']);

/** What the trigger needs: the bus, whether a switchboard runs, and its timings (ms). */
export interface LiveRunTriggerOptions {
  bus: Pick<MessageBus, 'publish'>;
  isRunning(switchboardId: number): Promise<boolean>;
  log(message: string): void;
  /** News within this time after the first make one run. */
  debounceMs: number;
  /** While waiting for a run to end, how often the switchboard's status is looked at again (a lost live message). */
  recheckMs: number;
}

interface Pending {
  /** Nodes whose data changed since the last request. */
  nodes: Set<number>;
  timer?: NodeJS.Timeout;
  /** A run was asked for or is under way: news waits until it has ended. */
  waiting: boolean;
  recheck?: NodeJS.Timeout;
}

/**
 * Turns news of live datasets into runs of their switchboards: bursts are debounced, and a
 * switchboard never gets a second run while one is under way — news that arrives meanwhile waits
 * for the end of the execution (`onSwitchboardStatus`) and then causes one more run. One changed
 * node runs from itself on; several run the whole switchboard.
 */
export class LiveRunTrigger implements Disposable {
  private readonly pending = new Map<number, Pending>();
  private disposed = false;

  constructor(private readonly options: LiveRunTriggerOptions) {}

  /** News for `nodeId` on switchboard `switchboardId`. */
  notify(switchboardId: number, nodeId: number): void {
    const p = this.stateOf(switchboardId);
    p.nodes.add(nodeId);
    if (!p.timer && !p.waiting) this.schedule(switchboardId, p);
  }

  /** The switchboard's status changed (its live UPDATE): an ended execution lets waiting news run. */
  onSwitchboardStatus(switchboardId: number, status: string): void {
    const p = this.pending.get(switchboardId);
    if (!p?.waiting || !ENDED.has(status)) return;
    this.release(switchboardId, p);
  }

  dispose(): void {
    this.disposed = true;
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      clearTimeout(p.recheck);
    }
    this.pending.clear();
  }

  private stateOf(id: number): Pending {
    let p = this.pending.get(id);
    if (!p) this.pending.set(id, (p = { nodes: new Set(), waiting: false }));
    return p;
  }

  private schedule(id: number, p: Pending): void {
    p.timer = setTimeout(() => void this.flush(id, p), this.options.debounceMs);
    p.timer.unref();
  }

  /** Asks for a run of the switchboard, unless it runs: then waits for its end. */
  private async flush(id: number, p: Pending): Promise<void> {
    p.timer = undefined;
    p.waiting = true;
    try {
      if (!(await this.options.isRunning(id)) && !this.disposed && p.nodes.size) {
        const nodes = [...p.nodes];
        p.nodes.clear();
        await this.options.bus.publish(RUN_REQUEST_CHANNEL, {
          switchboard_id: id,
          ...(nodes.length === 1 ? { node_id: nodes[0] } : {}),
        });
      }
    } catch (e) {
      this.options.log(`Live datasets: asking for a run of switchboard ${id} failed: ${(e as Error).message}`);
    }
    this.armRecheck(id, p);
  }

  /** Looks at the status again after recheckMs, in case the end of the run was not heard (or no run started). */
  private armRecheck(id: number, p: Pending): void {
    if (this.disposed) return;
    clearTimeout(p.recheck);
    p.recheck = setTimeout(() => {
      void this.options.isRunning(id).then(
        (running) => (running ? this.armRecheck(id, p) : this.release(id, p)),
        () => this.armRecheck(id, p),
      );
    }, this.options.recheckMs);
    p.recheck.unref();
  }

  /** The run has ended: waiting news (if any) is scheduled; otherwise the switchboard is forgotten. */
  private release(id: number, p: Pending): void {
    if (this.disposed || !p.waiting) return;
    p.waiting = false;
    clearTimeout(p.recheck);
    if (p.nodes.size) this.schedule(id, p);
    else this.pending.delete(id);
  }
}
