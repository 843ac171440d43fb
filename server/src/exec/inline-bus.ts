import { Disposable } from '@werkbank/kernel';
import type { MessageBus, PublishOptions } from '@werkbank/sdk/node';
import { checkBusChannel, encodeBusMessage } from './bus-message';
import { afterCommit } from './transaction-hooks';

/**
 * The bus of one process (embedded database): handlers run on the next microtask, in publish order.
 * Channel names and payload sizes are checked as on PostgreSQL (bus-message.ts); `after` defers the
 * delivery to the commit of that transaction (TransactionHooks) and drops it on rollback.
 */
export class InlineBus implements MessageBus {
  private readonly handlers = new Map<string, Set<(payload: Record<string, unknown>) => void>>();

  constructor(private readonly log: (m: string) => void) {}

  /** Resolves at once (also when delivery waits for a commit); rejects an invalid channel or payload. */
  async publish(channel: string, payload: Record<string, unknown>, options: PublishOptions = {}): Promise<void> {
    const text = encodeBusMessage(channel, payload);
    if (options.after) afterCommit(options.after, () => this.deliver(channel, text));
    else this.deliver(channel, text);
  }

  subscribe(channel: string, handler: (payload: Record<string, unknown>) => void): Disposable {
    checkBusChannel(channel);
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return Disposable.create(() => set.delete(handler));
  }

  private deliver(channel: string, text: string): void {
    const copy = JSON.parse(text) as Record<string, unknown>;
    for (const h of [...(this.handlers.get(channel) ?? [])]) {
      queueMicrotask(() => {
        try {
          h(copy);
        } catch (e) {
          this.log(`Bus handler on ${channel} failed: ${(e as Error).stack ?? String(e)}`);
        }
      });
    }
  }
}
