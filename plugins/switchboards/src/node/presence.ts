import { randomUUID } from 'node:crypto';
import type { AuthUser, Disposable } from '@werkbank/sdk/node';
import { SwitchboardsServices } from './switchboards-services';

/** Bus channel of presence announcements (who has which switchboard open, what they selected). */
export const PRESENCE_CHANNEL = 'werkbank_switchboard_presence';
/** The largest presence message a client may send (bytes); larger ones are ignored. */
const MAX_MESSAGE = 1024;
/** A client's announcements beyond this many per second are dropped. */
const MAX_PER_SECOND = 10;
/** Arrivals on a switchboard within this time are answered with one round of announcements. */
const WHO_COALESCE_MS = 200;

interface PresenceMessage {
  switchboard_id: number;
  /** `here`: a client's state; `leave`: it closed; `who`: a new client asks everyone to announce. */
  kind: 'here' | 'leave' | 'who';
  client: string;
  user?: string;
  name?: string;
  selected?: string | null;
}

/** What a client of /ws/status_updates is told about the others (never about itself). */
export type PresenceSend = (text: string) => void;

interface Member {
  client: string;
  switchboardId: number;
  user: AuthUser;
  selected: string | null;
  send: PresenceSend;
  sentAt: number[];
}

/**
 * Presence on a switchboard (beyond spec 000: who else has it open and which node or frame they
 * selected). A status_updates client sends `{"type":"PRESENCE","selected":<address|null>}`; every
 * other reader of the switchboard, on any server process, receives `{"type":"PRESENCE", client,
 * user, name, selected}` and, when that client goes, `{"type":"PRESENCE_LEAVE", client}`. A new
 * client learns who is already there because its arrival asks every process to announce its members.
 */
export class PresenceHub {
  private readonly members = new Map<string, Member>();
  private subscription?: Disposable;
  private readonly whoTimers = new Map<number, NodeJS.Timeout>();

  constructor(private readonly services: Pick<SwitchboardsServices, 'bus' | 'log'>) {}

  /** Adds a reader of switchboard `id`; returns its client id and what to call for its messages and its end. */
  join(switchboardId: number, user: AuthUser, send: PresenceSend): { onMessage(raw: string): void; leave(): void } {
    this.ensureBus();
    const member: Member = { client: randomUUID(), switchboardId, user, selected: null, send, sentAt: [] };
    this.members.set(member.client, member);
    this.publish({ switchboard_id: switchboardId, kind: 'who', client: member.client });
    this.announce(member);
    return {
      onMessage: (raw) => this.onMessage(member, raw),
      leave: () => {
        if (!this.members.delete(member.client)) return;
        this.publish({ switchboard_id: switchboardId, kind: 'leave', client: member.client });
      },
    };
  }

  private onMessage(member: Member, raw: string): void {
    if (raw.length > MAX_MESSAGE) return;
    const now = Date.now();
    member.sentAt = member.sentAt.filter((t) => now - t < 1000);
    if (member.sentAt.length >= MAX_PER_SECOND) return;
    member.sentAt.push(now);
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    const m = msg as { type?: unknown; selected?: unknown };
    if (m.type !== 'PRESENCE') return;
    const selected = m.selected;
    // Only addresses of canvas objects; anything else is dropped rather than echoed to others.
    if (selected !== null && !(typeof selected === 'string' && /^\/api\/v1\/(node|frame|note)\/\d{1,12}\/$/.test(selected)))
      return;
    if (selected === member.selected) return;
    member.selected = selected;
    this.announce(member);
  }

  private announce(member: Member): void {
    this.publish({
      switchboard_id: member.switchboardId,
      kind: 'here',
      client: member.client,
      user: `/api/v1/user/${member.user.id}/`,
      name: member.user.displayName || member.user.username,
      selected: member.selected,
    });
  }

  private publish(message: PresenceMessage): void {
    void this.services.bus
      .publish(PRESENCE_CHANNEL, message as unknown as Record<string, unknown>)
      .catch((e: Error) => this.services.log(`Presence not sent: ${e.message}`));
  }

  private ensureBus(): void {
    if (this.subscription) return;
    this.subscription = this.services.bus.subscribe(PRESENCE_CHANNEL, (payload) =>
      this.deliver(payload as unknown as PresenceMessage),
    );
  }

  private deliver(msg: PresenceMessage): void {
    const others = [...this.members.values()].filter((m) => m.switchboardId === msg.switchboard_id && m.client !== msg.client);
    if (msg.kind === 'who') {
      // Many arrivals at once (or a client reconnecting in a loop) cause one round of announcements
      // per switchboard and process every WHO_COALESCE_MS, not one per arrival.
      if (others.length && !this.whoTimers.has(msg.switchboard_id)) {
        const timer = setTimeout(() => {
          this.whoTimers.delete(msg.switchboard_id);
          for (const m of this.members.values()) if (m.switchboardId === msg.switchboard_id) this.announce(m);
        }, WHO_COALESCE_MS);
        timer.unref();
        this.whoTimers.set(msg.switchboard_id, timer);
      }
      return;
    }
    const text =
      msg.kind === 'leave'
        ? JSON.stringify({ type: 'PRESENCE_LEAVE', client: msg.client })
        : JSON.stringify({ type: 'PRESENCE', client: msg.client, user: msg.user, name: msg.name, selected: msg.selected });
    for (const m of others) m.send(text);
  }

  dispose(): void {
    for (const t of this.whoTimers.values()) clearTimeout(t);
    this.subscription?.dispose();
  }
}
