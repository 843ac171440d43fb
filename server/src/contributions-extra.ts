import { token } from '@werkbank/kernel';
import type { WebSocket } from 'ws';
import type { Disposable, RegistrySink } from '@werkbank/kernel';
import type { ResourceExtension } from './resources/resource-definition';
import type { AuthUser } from './http/context';

export const ResourceExtensionContribution = token<ResourceExtensionContribution>('ResourceExtensionContribution');
export interface ResourceExtensionContribution {
  registerResourceExtensions(registry: RegistrySink<ResourceExtension>): void;
}

/** A websocket channel at `path`; the hub has checked Origin and the session before onConnect. */
export interface WebSocketChannelDescriptor {
  id: string;
  path: string;
  onConnect(socket: WebSocket, user: AuthUser, url: URL): Disposable;
}
export const WebSocketChannelContribution = token<WebSocketChannelContribution>('WebSocketChannelContribution');
export interface WebSocketChannelContribution {
  registerWebSocketChannels(registry: RegistrySink<WebSocketChannelDescriptor>): void;
}
