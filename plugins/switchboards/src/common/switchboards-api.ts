/**
 * The Switchboards' API for other plugins (package export `@werkbank/plugin-switchboards/api`):
 * opening the bytes of file datums in functions. Import it only from a plugin that lists
 * 'switchboards' in `requires` or `optional`.
 */
import { token } from '@werkbank/sdk';
import type { AuthUser } from '@werkbank/sdk/node';
import type { Readable } from 'node:stream';

/** The bytes of a file datum, opened for a switchboard function. */
export interface OpenedFile {
  /** The bytes; the reader must consume or destroy it. */
  stream: Readable;
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
export const FileAccess = token<FileAccess>('switchboards.FileAccess');
