import type { EntityManager } from '@werkbank/sdk/node';
import { SwitchboardsServices } from './switchboards-services';

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
export function publishLive(
  services: Pick<SwitchboardsServices, 'bus' | 'log'>,
  m: EntityManager | undefined,
  message: LiveMessage,
): void {
  void services.bus
    .publish(LIVE_CHANNEL, message as unknown as Record<string, unknown>, { after: m })
    .catch((e: Error) => services.log(`Live update of ${message.resource_uri} not sent: ${e.message}`));
}

/** An UPDATE of a node's fields (status, runinfo, …). */
export function nodeLive(
  services: Pick<SwitchboardsServices, 'bus' | 'log'>,
  m: EntityManager | undefined,
  switchboardId: number,
  nodeId: number,
  fields: Record<string, unknown>,
): void {
  publishLive(services, m, { switchboard_id: switchboardId, event: 'UPDATE', resource_uri: `/api/v1/node/${nodeId}/`, fields });
}

/** An UPDATE of the switchboard's own fields (status, progress, execution). */
export function switchboardLive(
  services: Pick<SwitchboardsServices, 'bus' | 'log'>,
  m: EntityManager | undefined,
  switchboardId: number,
  fields: Record<string, unknown>,
): void {
  publishLive(services, m, {
    switchboard_id: switchboardId,
    event: 'UPDATE',
    resource_uri: `/api/v1/switchboard/${switchboardId}/`,
    fields,
  });
}

/** An UPDATE of a frame's fields (size, text_repr, outdated, …). */
export function frameLive(
  services: Pick<SwitchboardsServices, 'bus' | 'log'>,
  m: EntityManager | undefined,
  switchboardId: number,
  frameId: number,
  fields: Record<string, unknown>,
): void {
  publishLive(services, m, { switchboard_id: switchboardId, event: 'UPDATE', resource_uri: `/api/v1/frame/${frameId}/`, fields });
}
