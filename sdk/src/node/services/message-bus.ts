import { token, type Disposable } from '@werkbank/kernel';

/**
 * Messages between server processes (API servers and workers). With a PostgreSQL server they
 * travel through LISTEN/NOTIFY, so every process hears them; on the embedded database (one process)
 * an in-process bus delivers them. Payloads are small JSON objects (under 7,000 bytes): ids and
 * statuses, never data.
 */
export interface PublishOptions {
  /**
   * The manager of the transaction that wrote the change: the message is sent after it commits and
   * dropped when it rolls back. Without it (or outside a transaction) it is sent at once.
   */
  after?: import('typeorm').EntityManager;
}

export interface MessageBus {
  /** `channel`: lower-case letters, digits and underscores, e.g. `werkbank_switchboard`. */
  publish(channel: string, payload: Record<string, unknown>, options?: PublishOptions): Promise<void>;
  /** Every message on `channel`, from any process (including this one), in order per sender. */
  subscribe(channel: string, handler: (payload: Record<string, unknown>) => void): Disposable;
}
export const MessageBus = token<MessageBus>('MessageBus');
