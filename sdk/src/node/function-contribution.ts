import { token } from '@werkbank/kernel';
import type { Readable } from 'node:stream';
import type { RegistrySink } from '@werkbank/kernel';
import type { AuthUser } from './http-context';

/**
 * A port of a function: one typed input or output. A frame (typed list of datums) links to it.
 * `content_type` is a type name; 'any' accepts every type.
 */
export interface PortDescriptor {
  name: string;
  content_type: string;
  is_optional?: boolean;
  /** Takes several frames, one per slot (`list_index`). */
  is_list?: boolean;
  /** Takes several frames, one per key (`dict_key`). */
  is_dict?: boolean;
  /** Datum fields used as a one-item frame when the input has no link (the node's parameter). */
  default_value?: Record<string, unknown>;
}

/** A frame's content: datum fields of its content type, in order (e.g. `[{value: 'a'}]` for string). */
export type FrameItems = Record<string, unknown>[];

/**
 * What a function receives per input port: a plain port the linked frame's items (or its
 * default value as one item; undefined when optional and unset), a list port one item list per
 * slot in `list_index` order, a dict port one item list per `dict_key`.
 */
export type FunctionInputs = Record<string, FrameItems | FrameItems[] | Record<string, FrameItems> | undefined>;
/** What a function returns: the items of each output port (missing ports write nothing). */
export type FunctionOutputs = Record<string, FrameItems>;

export interface FunctionRunContext {
  /** Aborted when the run is stopped; long work must check it or pass it on. */
  signal: AbortSignal;
  /** Reports progress, 0..1. */
  progress(fraction: number): void;
  /** Appends a line to the node run's log. */
  log(message: string): void;
  /** Who runs the switchboard: reads and writes go through their permissions. */
  user: AuthUser;
  /** The node run being executed (lineage: moments written record it). */
  nodeRunId: number;
  /** Records a depot moment the run read (lineage). */
  recordRead(read: { depot_id: number; moment_id: number }): void;
  /** Records a depot moment the run wrote (lineage). */
  recordWrite(written: { depot_id: number; moment_id: number }): void;
  /** The caller's language, for messages. */
  lang: string;
  /**
   * Stores bytes as a file the run outputs (streamed into the server's blob store) and returns its
   * file datum `{ value: name, size, mime_type, stored_blob }` for an output port's items. The
   * engine gives the datum the download address of each output frame it lands in and records the
   * file for that frame (decision 0018); a datum naming a blob the run did not store is dropped.
   * `mime_type` defaults to what the first bytes look like.
   */
  storeFile(source: Readable | Buffer | string, file: StoredFileOptions): Promise<Record<string, unknown>>;
}
/** What `FunctionRunContext.storeFile` is told about a file. */
export interface StoredFileOptions {
  /** The file name users see and download it as (`value` of the datum), e.g. `export.csv`. */
  name: string;
  /** The type it is served with; sniffed from the bytes when missing. */
  mime_type?: string;
}
export interface FunctionDescriptor {
  /** Dotted name; the first segment is the namespace (`wfs.import`). */
  id: string;
  /** Changes whenever the implementation's results change; part of a node run's key. Default '1'. */
  version?: string;
  verbose_name: Record<string, string>;
  doc: Record<string, string>;
  inputs: PortDescriptor[];
  outputs: PortDescriptor[];
  hidden?: boolean;
  superuser_required?: boolean;
  /**
   * Runs the function. Throw to fail the node: an ApiError's reason or an Error's message becomes
   * the node's exception text, its stack the run's stacktrace.
   */
  run(inputs: FunctionInputs, ctx: FunctionRunContext): Promise<FunctionOutputs>;
}
export const FunctionContribution = token<FunctionContribution>('FunctionContribution');
export interface FunctionContribution {
  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void;
}
