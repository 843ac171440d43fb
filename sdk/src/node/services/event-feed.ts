import { token, type Event } from '@werkbank/kernel';

/** The activity feed as plugins observe it. Entries are written through ResourceServices.recordEvent. */
export interface EventFeed {
  /** Fires after a transaction that wrote feed entries has committed, once per kind. */
  readonly onDidRecordEvent: Event<{ kind: string }>;
}
export const EventFeed = token<EventFeed>('EventFeed');
