/**
 * The Switchboards' API for other plugins (package export `@werkbank/plugin-switchboards/api`):
 * opening the bytes of file datums in functions, templates for new switchboards, the switchboard of a
 * node run. Import it only from a plugin that lists
 * 'switchboards' in `requires` or `optional`.
 */
import { token } from '@werkbank/sdk';
import type { AuthUser, ResourceRequest } from '@werkbank/sdk/node';
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

/** What a switchboard made from a template starts with (decision 0064): one frame holding the template. */
export interface SwitchboardTemplate {
  /** The frame's type name, e.g. `layertemplate`. */
  content_type: string;
  /** The frame's name, and the switchboard's when the call gives none. */
  name: string;
  /** The datum fields the frame holds. */
  fields: Record<string, unknown>;
}

/**
 * Templates for new switchboards (spec 000 §7 "Create from template: POST with body and query
 * template or template_layer"), bound by the plugin that owns layer templates (the layers plugin).
 * `template` is a layer template datum's address, `template_layer` a layer whose settings serve as
 * one; exactly one is given. Throws ApiError (400 / 404 with the reason) for an unknown, unreadable
 * or invalid template. Without a binding, switchboard creation refuses both with 501.
 */
export interface SwitchboardTemplates {
  resolve(req: ResourceRequest, source: { template?: string; template_layer?: string }): Promise<SwitchboardTemplate>;
}
export const SwitchboardTemplates = token<SwitchboardTemplates>('switchboards.SwitchboardTemplates');

/** A switchboard as other plugins name it. */
export interface SwitchboardRef {
  id: number;
  resource_uri: string;
  name: string;
}

/**
 * Which switchboard ran a node run (a moment records the run that wrote it, DepotAccess
 * `nodeRunId`), bound by the Switchboards. Only switchboards `req`'s caller may read are answered;
 * runs of others, and runs that are gone, are left out of the map.
 */
export interface SwitchboardRuns {
  switchboardsOfRuns(req: ResourceRequest, runIds: number[]): Promise<Map<number, SwitchboardRef>>;
}
export const SwitchboardRuns = token<SwitchboardRuns>('switchboards.SwitchboardRuns');
