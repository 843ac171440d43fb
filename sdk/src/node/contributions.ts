import { token } from '@werkbank/kernel';
import type { DataSource, EntityManager, EntitySchema, MigrationInterface } from 'typeorm';
import type { Disposable, RegistrySink, TranslationBundle } from '@werkbank/kernel';
import type { ResourceDefinition, ResourceExtension } from './resource-definition';
import type { AuthUser, WerkbankRouter } from './http-context';
import type { WebSocket } from 'ws';

/** Node-side contribution points (DESIGN §2). Each has a token of the same name. */

export interface EntityDescriptor {
  id: string;
  entities: EntitySchema[];
  /** Migration classes, run in name order across all plugins (names start with a timestamp). */
  migrations: Array<new () => MigrationInterface>;
}
export const EntityContribution = token<EntityContribution>('EntityContribution');
export interface EntityContribution {
  registerEntities(registry: RegistrySink<EntityDescriptor>): void;
}

export const ResourceContribution = token<ResourceContribution>('ResourceContribution');
export interface ResourceContribution {
  registerResources(registry: RegistrySink<ResourceDefinition>): void;
}

/** Extra HTTP routes beyond the resource layer. `mount` receives a router under the app root. */
export interface RouteDescriptor {
  id: string;
  /** API key realms the routes check with guard(); listed as known realms. */
  realms?: string[];
  /** OpenAPI path entries of the routes, merged into /api/openapi.json. */
  openapi?: Record<string, unknown>;
  mount(router: WerkbankRouter): void;
}
export const HttpRouteContribution = token<HttpRouteContribution>('HttpRouteContribution');
export interface HttpRouteContribution {
  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void;
}

export const NodeTranslationContribution = token<NodeTranslationContribution>('NodeTranslationContribution');
export interface NodeTranslationContribution {
  registerTranslations(registry: RegistrySink<TranslationBundle>): void;
}

/** Public service endpoints (WFS, WMS, ...). Their first users arrive with the services issue. */
export interface ServiceEndpointDescriptor {
  id: string;
  /** Path prefix under which the endpoint is mounted, e.g. `/services/wfs/`. */
  prefix: string;
  mount(router: WerkbankRouter): void;
}
export const ServiceEndpointContribution = token<ServiceEndpointContribution>('ServiceEndpointContribution');
export interface ServiceEndpointContribution {
  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void;
}

/**
 * Runs once after migrations, before the server listens. Must not await slow I/O (STYLE §8): start
 * background work and return a Disposable that stops it; it is disposed when the server closes.
 */
export interface StartupHookDescriptor {
  id: string;
  run(services: StartupServices): void | Disposable | Promise<void | Disposable>;
}
export interface StartupServices {
  dataSource: DataSource;
  log(message: string): void;
}
export const StartupHookContribution = token<StartupHookContribution>('StartupHookContribution');
export interface StartupHookContribution {
  registerStartupHooks(registry: RegistrySink<StartupHookDescriptor>): void;
}

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

/**
 * What a plugin still uses of the shared blob store (decision 0017). The server's one sweep
 * deletes a candidate blob only when no source names it. A plugin that stores blobs contributes
 * a source, and marks the blobs of references it drops as candidates with the SQL function
 * `werkbank_blob_release(hash)` (typically from a trigger, so cascades are caught too).
 */
export interface BlobReferenceSource {
  /** `<plugin-id>.<name>`, e.g. `magazine.datum-versions`. */
  id: string;
  /**
   * Which of `hashes` (sha256, lower-case hex) the plugin still refers to. Runs in the sweep's
   * transaction `m` and must only read. A rejection keeps the whole batch (nothing is deleted).
   */
  usedOf(m: EntityManager, hashes: string[]): Promise<Iterable<string>>;
}
export const BlobReferenceContribution = token<BlobReferenceContribution>('BlobReferenceContribution');
export interface BlobReferenceContribution {
  registerBlobReferences(registry: RegistrySink<BlobReferenceSource>): void;
}
