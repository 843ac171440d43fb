import { ContainerModule } from 'inversify';
import { ComponentGate, TypeHierarchy, type TypeRegistry, type Token } from '@werkbank/kernel';
import {
  BlobDownloads,
  BlobStore,
  Database,
  DatumValidator,
  EventFeed,
  FunctionCatalog,
  JobQueue,
  Logger,
  MessageBus,
  PreparedStatements,
  ProcessRole,
  RequestBodies,
  ResourceServices,
  ServerConfig,
  Translator,
  UrlFetcher,
  UserDirectory,
  WorkerPool,
} from '@werkbank/sdk/node';
import type { DataSource } from 'typeorm';
import { ConfiguredRequestBodies, StoreBlobDownloads } from './http/http-services';

/**
 * The implementation of each service a plugin may inject, made by the server before plugins load.
 * Services built on other services (RequestBodies, BlobDownloads on BlobStore) are not listed:
 * coreServicesModule makes them from whatever is bound, so replacing one service replaces it for
 * them too.
 */
export interface CoreServices {
  config: Readonly<ServerConfig>;
  dataSource: DataSource;
  prepared: PreparedStatements;
  logger: Logger;
  role: ProcessRole;
  translator: Translator;
  users: UserDirectory;
  eventFeed: EventFeed;
  functions: FunctionCatalog;
  types: TypeRegistry;
  datumTypes: DatumValidator;
  resources: ResourceServices;
  gate: ComponentGate;
  blobs: BlobStore;
  net: UrlFetcher;
  bus: MessageBus;
  jobs: JobQueue;
  workers: WorkerPool;
}

/** Which token each core service is bound to: one token per service (STYLE §7). */
export const CORE_SERVICE_TOKENS: { [K in keyof CoreServices]: Token<unknown> | symbol } = {
  config: ServerConfig,
  dataSource: Database,
  prepared: PreparedStatements,
  logger: Logger,
  role: ProcessRole,
  translator: Translator,
  users: UserDirectory,
  eventFeed: EventFeed,
  functions: FunctionCatalog,
  types: TypeHierarchy,
  datumTypes: DatumValidator,
  resources: ResourceServices,
  gate: ComponentGate,
  blobs: BlobStore,
  net: UrlFetcher,
  bus: MessageBus,
  jobs: JobQueue,
  workers: WorkerPool,
};

/**
 * Binds every core service to its token. Loaded before the plugins, so a plugin's module (or a
 * test, through WerkbankServerOptions.services) can rebind any of them.
 */
export function coreServicesModule(services: CoreServices): ContainerModule {
  return new ContainerModule(({ bind }) => {
    for (const [name, token] of Object.entries(CORE_SERVICE_TOKENS))
      bind(token).toConstantValue(services[name as keyof CoreServices]);
    bind(RequestBodies)
      .toDynamicValue((ctx) => new ConfiguredRequestBodies(services.config, ctx.get<BlobStore>(BlobStore)))
      .inSingletonScope();
    bind(BlobDownloads)
      .toDynamicValue((ctx) => new StoreBlobDownloads(ctx.get<BlobStore>(BlobStore)))
      .inSingletonScope();
  });
}
