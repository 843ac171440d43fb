import {
  Disposable,
  inject,
  injectable,
  type AuthUser,
  type RegistrySink,
  type ResourceRequest,
  type Row,
  type WebSocketChannelContribution,
  type WebSocketChannelDescriptor,
} from '@werkbank/sdk/node';
import { LIVE_CHANNEL, type LiveMessage } from './live';
import { definitionOf, SWITCHBOARD_PATH } from './switchboard-access';
import { PresenceHub } from './presence';
import { SwitchboardsServices } from './switchboards-services';

/** Every reader's access is checked again this often (ms). */
const RECHECK_INTERVAL = 30_000;
/** Live connections one user may hold at once (all switchboards, both channels). */
const MAX_CONNECTIONS_PER_USER = 50;
/** A summary is sent at most this often per switchboard (ms). */
const SUMMARY_INTERVAL = 250;

type Socket = Parameters<WebSocketChannelDescriptor['onConnect']>[0];
/** A reader of one switchboard; while `checks` run, what is sent to it waits in `queue`. */
type Subscriber = {
  socket: Socket;
  summary: boolean;
  user: AuthUser;
  checks: number;
  queue: string[];
  checked: Promise<void>;
  /** Presence on the switchboard (status_updates only); left at once when access ends. */
  presence?: { leave(): void };
};

/**
 * /ws/status_updates and /ws/switchboard_summary (spec 000 §7): changes of one switchboard, for
 * callers who may read it. Messages come over the bus, so changes made by any server or worker
 * process reach every subscriber. Read access is checked at connect and again whenever the
 * switchboard itself changes (a change of its grants is one); a reader who lost it is closed with
 * 4404 and gets nothing sent after the change.
 */
@injectable()
export class LiveChannels implements WebSocketChannelContribution {
  @inject(SwitchboardsServices) protected readonly services!: SwitchboardsServices;
  private readonly subscribers = new Map<number, Set<Subscriber>>();
  private busSubscription?: Disposable;
  private readonly summaryTimers = new Map<number, NodeJS.Timeout>();
  private presenceHub?: PresenceHub;

  private get presence(): PresenceHub {
    return (this.presenceHub ??= new PresenceHub(this.services));
  }

  private ensureBus(): void {
    if (this.busSubscription) return;
    this.busSubscription = this.services.bus.subscribe(LIVE_CHANNEL, (payload) =>
      this.deliver(payload as unknown as LiveMessage),
    );
    // Access can also end without a change of the switchboard (a group membership): check every reader
    // again now and then.
    const timer = setInterval(() => {
      for (const [id, subs] of this.subscribers) for (const s of subs) this.recheck(id, s);
    }, RECHECK_INTERVAL);
    timer.unref();
  }

  /** How many live connections the user holds. */
  private connectionsOf(userId: number): number {
    let n = 0;
    for (const subs of this.subscribers.values()) for (const s of subs) if (s.user.id === userId) n++;
    return n;
  }

  private deliver(msg: LiveMessage): void {
    const subs = this.subscribers.get(msg.switchboard_id);
    if (!subs?.size) return;
    const text = JSON.stringify({
      type: msg.event,
      resource_uri: msg.resource_uri,
      ...(msg.fields ? { fields: msg.fields } : {}),
    });
    if (msg.resource_uri === `${SWITCHBOARD_PATH}${msg.switchboard_id}/`) {
      for (const s of subs) this.recheck(msg.switchboard_id, s);
    }
    for (const s of subs) if (!s.summary) this.send(s, text);
    if ([...subs].some((s) => s.summary) && !this.summaryTimers.has(msg.switchboard_id)) {
      const timer = setTimeout(() => {
        this.summaryTimers.delete(msg.switchboard_id);
        void this.sendSummary(msg.switchboard_id);
      }, SUMMARY_INTERVAL);
      timer.unref();
      this.summaryTimers.set(msg.switchboard_id, timer);
    }
  }

  /** Status, progress and node counts per status of a switchboard. */
  async summary(id: number): Promise<Record<string, unknown> | undefined> {
    const db = this.services.dataSource;
    const [sb] = (await db.query(`SELECT id, name, status, progress, execution_id FROM switchboard WHERE id = $1`, [
      id,
    ])) as Row[];
    if (!sb) return undefined;
    const counts = (await db.query(
      `SELECT status, count(*)::int AS n, count(*) FILTER (WHERE outdated)::int AS outdated FROM switchboard_node WHERE switchboard_id = $1 GROUP BY status`,
      [id],
    )) as { status: string; n: number; outdated: number }[];
    const nodes: Record<string, number> = { initialized: 0, waiting: 0, started: 0, success: 0, failure: 0, outdated: 0 };
    for (const c of counts) {
      nodes[c.status] = (nodes[c.status] ?? 0) + c.n;
      nodes.outdated += c.outdated;
    }
    return {
      type: 'SUMMARY',
      resource_uri: `${SWITCHBOARD_PATH}${id}/`,
      status: sb.status,
      progress: { total: Math.round(Number(sb.progress) * 10) / 10 },
      execution: sb.execution_id ? `/api/v1/execution/${String(sb.execution_id)}/` : null,
      nodes,
    };
  }

  private async sendSummary(id: number): Promise<void> {
    const subs = [...(this.subscribers.get(id) ?? [])].filter((s) => s.summary);
    if (!subs.length) return;
    const summary = await this.summary(id).catch(() => undefined);
    if (!summary) return;
    const text = JSON.stringify(summary);
    for (const s of subs) this.send(s, text);
  }

  private send(s: Subscriber, text: string): void {
    if (s.checks) s.queue.push(text);
    else if (s.socket.readyState === s.socket.OPEN) s.socket.send(text);
  }

  /** Checks the subscriber's read access again (in order with earlier checks); holds its messages meanwhile. */
  private recheck(id: number, s: Subscriber): void {
    s.checks++;
    s.checked = s.checked.then(async () => {
      // The user as now (groups, active), not as at connect.
      const user = await this.services.loadUser(s.user.id).catch(() => undefined);
      const ok = !!user && (await this.mayRead(user, id).catch(() => false));
      s.checks--;
      if (!ok) {
        s.queue.length = 0;
        s.presence?.leave();
        this.subscribers.get(id)?.delete(s);
        s.socket.close(4404, 'switchboard not found');
      } else if (!s.checks) {
        for (const text of s.queue.splice(0)) this.send(s, text);
      }
    });
  }

  /** May the user read the switchboard? (Checked through the resource layer, as for HTTP.) */
  private async mayRead(user: AuthUser, id: number): Promise<boolean> {
    const req: ResourceRequest = {
      user,
      t: ((k: string) => k) as unknown as ResourceRequest['t'],
      lang: user.language ?? 'en',
      manager: this.services.dataSource.manager,
      services: this.services.resources,
    };
    return !!(await this.services.resources.loadReadable(definitionOf(req, 'switchboard'), id, req));
  }

  private channel(path: string, summary: boolean): WebSocketChannelDescriptor {
    return {
      id: `switchboards.${summary ? 'summary' : 'status'}`,
      path,
      onConnect: (socket: Socket, user: AuthUser, url: URL) => {
        this.ensureBus();
        const raw = url.searchParams.get('switchboard_id') ?? '';
        let sub: Subscriber | undefined;
        let presence: ReturnType<PresenceHub['join']> | undefined;
        let closed = false;
        const id = /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
        void (async () => {
          if (id === undefined || !(await this.mayRead(user, id))) {
            // 4404: no such switchboard for this user (unknown and unreadable look the same).
            socket.close(4404, 'switchboard not found');
            return;
          }
          if (closed) return;
          if (this.connectionsOf(user.id) >= MAX_CONNECTIONS_PER_USER) {
            socket.close(4429, 'too many live connections');
            return;
          }
          sub = { socket, summary, user, checks: 0, queue: [], checked: Promise.resolve() };
          let set = this.subscribers.get(id);
          if (!set) this.subscribers.set(id, (set = new Set()));
          set.add(sub);
          socket.send(JSON.stringify({ type: 'SUBSCRIBED', resource_uri: `${SWITCHBOARD_PATH}${id}/` }));
          if (summary) await this.sendSummary(id);
          else {
            const s = sub;
            presence = this.presence.join(id, user, (text) => this.send(s, text));
            s.presence = presence;
            socket.on('message', (data: Buffer) => presence?.onMessage(data.toString('utf8')));
          }
        })().catch(() => socket.close(1011, 'error'));
        return Disposable.create(() => {
          closed = true;
          presence?.leave();
          if (id !== undefined && sub) this.subscribers.get(id)?.delete(sub);
        });
      },
    };
  }

  registerWebSocketChannels(registry: RegistrySink<WebSocketChannelDescriptor>): void {
    registry.add(this.channel('/ws/status_updates', false));
    registry.add(this.channel('/ws/switchboard_summary', true));
  }
}
