import type { EntityManager } from 'typeorm';
import { Emitter, type EventKey } from '@werkbank/kernel';
import { currentImpersonator } from '../auth/acting-as';

export interface RecordedEvent {
  key: EventKey | string;
  userId: number | null;
  kind: string;
  objectId: number | null;
  objectUri: string | null;
  repr: string;
  ownerId: number | null;
  metadata?: Record<string, unknown>;
}

/**
 * The activity feed. Entries are written with the manager of the change's own transaction, so a
 * change and its entry commit or roll back together. Listeners hear of entries after commit.
 */
export class EventService {
  private readonly onDidRecordEmitter = new Emitter<{ kind: string }>();
  readonly onDidRecordEvent = this.onDidRecordEmitter.event;

  /** Records an entry; one made while impersonating names the superuser behind it too (issue 19). */
  async record(m: EntityManager, e: RecordedEvent): Promise<void> {
    const by = currentImpersonator();
    const metadata = by
      ? { ...e.metadata, impersonator: `/api/v1/user/${by.id}/`, impersonator_name: by.displayName }
      : (e.metadata ?? {});
    await m.query(
      `INSERT INTO werkbank_event (key, user_id, kind, object_id, object_uri, object_repr, object_owner_id, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [e.key, e.userId, e.kind, e.objectId, e.objectUri, e.repr.slice(0, 500), e.ownerId, JSON.stringify(metadata)],
    );
  }

  /** Tells listeners (websocket clients) that entries were committed. */
  announce(kind: string): void {
    this.onDidRecordEmitter.fire({ kind });
  }

  dispose(): void {
    this.onDidRecordEmitter.dispose();
  }
}
