import type { EntityManager, ServerServices } from '@werkbank/sdk/node';

/** Bus channel of every change on a switchboard (websocket channels fan it out). */
export const LIVE_CHANNEL = 'werkbank_switchboard';

export type LiveEvent =
  | 'NODE_INSERT'
  | 'NODE_DELETE'
  | 'FRAME_INSERT'
  | 'FRAME_DELETE'
  | 'LINK_INSERT'
  | 'LINK_DELETE'
  | 'NOTE_INSERT'
  | 'NOTE_DELETE'
  | 'UPDATE';

export interface LiveMessage {
  switchboard_id: number;
  event: LiveEvent;
  /** The object's resource address (`/api/v1/node/5/`). */
  resource_uri: string;
  /** Changed fields of an UPDATE (status, progress, runinfo, …); small values only. */
  fields?: Record<string, unknown>;
}

/** Announces a change after the transaction of `m` commits (dropped when it rolls back). */
export function publishLive(services: Pick<ServerServices, 'bus'>, m: EntityManager | undefined, message: LiveMessage): void {
  void services.bus.publish(LIVE_CHANNEL, message as unknown as Record<string, unknown>, { after: m }).catch(() => undefined);
}
