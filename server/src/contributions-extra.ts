import { token } from '@werkbank/kernel';
import type { WebSocket } from 'ws';
import type { EntityManager } from 'typeorm';
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

/** A depot's datums as a switchboard function reads them (fields of the depot's content type). */
export interface DepotSnapshot {
  depot_id: number;
  moment_id: number;
  content_type: string;
  items: Record<string, unknown>[];
}

/**
 * Depot reads and writes for switchboard functions, bound by the plugin that owns depots (the
 * Magazine). Permissions are the given user's: read_depot to read, write_depot to write.
 */
export interface DepotAccess {
  /**
   * The datums at `momentId`, or at the latest approved moment when it is not given. 404 when the
   * user may not read the depot; 409 `no_approved_moment` when it has none.
   */
  read(user: AuthUser, depot: number | string, momentId?: number): Promise<DepotSnapshot>;
  /**
   * Writes `items` as a new moment (replacing the depot's datums, or appending with
   * mode 'append') and records the node run that wrote it. Items are validated against the depot's
   * content type.
   */
  write(
    user: AuthUser,
    depot: number | string,
    items: Record<string, unknown>[],
    options: { nodeRunId?: number; mode?: 'replace' | 'append'; message?: string; lang?: string },
  ): Promise<{ depot_id: number; moment_id: number }>;
  /**
   * Like `write`, for more items than memory or a frame can hold: the items come from `batches`
   * and are validated and stored batch by batch (batched statements) into ONE new moment, so
   * memory holds about one batch whatever the total. All or nothing: when a batch is invalid, or
   * `batches` throws, nothing is kept (no moment, no datums) and the error is rethrown. An item's
   * error names its place in the whole stream (`items[i]`). The permission check comes before the
   * first batch is pulled. `count` is the number of items written.
   */
  writeStream(
    user: AuthUser,
    depot: number | string,
    batches: AsyncIterable<Record<string, unknown>[]>,
    options: { nodeRunId?: number; mode?: 'replace' | 'append'; message?: string; lang?: string },
  ): Promise<{ depot_id: number; moment_id: number; count: number }>;
  /**
   * One datum by its address (`/api/v1/datum/{id}/`, optionally `@{moment}`), when the user may read
   * its depot; 404 otherwise. `name` is the datum's name or file path where it has one.
   */
  datum(
    user: AuthUser,
    address: string,
  ): Promise<{ depot_id: number; moment_id: number; content_type: string; name: string; fields: Record<string, unknown> }>;
}
export const DepotAccess = token<DepotAccess>('DepotAccess');

/** The bytes of a file datum, opened for a switchboard function. */
export interface OpenedFile {
  /** The bytes; the reader must consume or destroy it. */
  stream: import('node:stream').Readable;
  /** The recorded size and type (the blob store's, never what the datum says). */
  size: number;
  mime_type: string;
  /** The datum's file name (its `value`). */
  name: string;
}

/**
 * Reading the bytes of file datums for switchboard functions, bound by the plugin that records
 * frame files (the Switchboards, decision 0018). Opens exactly what the download route would serve
 * `user`: a file the server recorded for the frame its `download_url` names, which that frame still
 * holds, of a switchboard the user may read. 404 otherwise (also for a hand-made datum).
 */
export interface FileAccess {
  open(user: AuthUser, file: Record<string, unknown>): Promise<OpenedFile>;
}
export const FileAccess = token<FileAccess>('FileAccess');
