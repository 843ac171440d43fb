import { token } from '@werkbank/kernel';
import type { DataSource } from 'typeorm';
import type { ComponentGate, Event, TypeRegistry } from '@werkbank/kernel';
import type { ResourceDefinition, ResourceServices } from './resources/resource-definition';
import type { BlobStore } from './blob/blob-store';
import type { ServerConfig } from './config';
import type { DatumValidator } from './types/datum-validator';
import type { FunctionDescriptor } from './contributions';
import type { MessageBus } from './exec/message-bus';
import type { JobQueue } from './exec/job-queue';
import type { AuthUser } from './http/context';
import type { UrlFetcher } from './net/url-fetcher';

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
  /** Fetches user-given URLs, refusing the server's own networks (SSRF guard, FETCH_* settings). */
  net: UrlFetcher;
  log(message: string): void;
  /** The server's configuration (read-only). */
  config: Readonly<ServerConfig>;
  /** The functions contributed by plugins (what switchboard nodes run). */
  functions: {
    all(): FunctionDescriptor[];
    get(id: string): FunctionDescriptor | undefined;
    ownerOf(id: string): string | undefined;
  };
  /** Messages between server processes (LISTEN/NOTIFY on PostgreSQL, in-process when embedded). */
  bus: MessageBus;
  /** Background jobs (in-process, or pg-boss with worker processes). */
  jobs: JobQueue;
  /** A user as requests see them (permissions, groups), e.g. for work queued on their behalf. */
  loadUser(id: number): Promise<AuthUser | undefined>;
  /**
   * Runs a constant statement as a named prepared statement on the pool (parsed and planned once per
   * connection): for hot paths such as the execution engine. Outside any transaction.
   */
  prepared<T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]>;
  /** A text of the server's or a plugin's translations (`ns:key`) in a language, outside a request. */
  translate(lang: string, key: string, params?: Record<string, unknown>): string;
  /** 'server' for API servers, 'worker' for `npm run worker` processes. */
  role: 'server' | 'worker';
}
export const ServerServices = token<ServerServices>('ServerServices');
