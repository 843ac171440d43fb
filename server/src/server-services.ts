import { token } from '@werkbank/kernel';
import type { DataSource } from 'typeorm';
import type { ComponentGate, Event, TypeRegistry } from '@werkbank/kernel';
import type { ResourceDefinition, ResourceServices } from './resources/resource-definition';
import type { BlobStore } from './blob/blob-store';
import type { ServerConfig } from './config';
import type { DatumValidator } from './types/datum-validator';

/**
 * What node-side plugins may use from the host, bound under the ServerServices token. The fields
 * are filled once the database is open, before any start-up hook runs or any request is served.
 */
export interface ServerServices {
  dataSource: DataSource;
  resources: ResourceServices & { definitions(): ResourceDefinition[] };
  gate: ComponentGate;
  /** The datum types contributed by plugins (base chains, assignability). */
  types: TypeRegistry;
  /** Datum fields against their type: validation, templates, text representations. */
  datumTypes: DatumValidator;
  /** Fires after a transaction that wrote event-feed entries has committed. */
  onDidRecordEvent: Event<{ kind: string }>;
  /** File storage (content-addressed); uploads stream into it, downloads use sendBlob. */
  blobs: BlobStore;
  log(message: string): void;
  /** The server's configuration (read-only). */
  config: Readonly<ServerConfig>;
}
export const ServerServices = token<ServerServices>('ServerServices');
