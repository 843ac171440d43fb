import type { Readable } from 'node:stream';
import type { FrameItems, FunctionInputs, FunctionRunContext } from '@werkbank/sdk/node';
import { append, named, part } from '../source-items';
import { failure, itemsOf } from './vector-params';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** One input file read whole into memory: its name (for messages) and bytes. */
export interface LoadedFile {
  name: string;
  bytes: Buffer;
}

/** Reads one loaded file into features (with its own progress 0..1 through `ctx`). */
export type FileReader = (file: LoadedFile, ctx: FunctionRunContext) => Promise<FrameItems>;

/**
 * Runs a whole-file import (formats that need random access: zipped Shapefiles, KMZ, GeoPackage):
 * opens each item of the input `file` through FileAccess as the running user, reads it into memory
 * up to `maxBytes` (`file_too_large` beyond), hands it to `read` and joins the features in order. A
 * failure gets the file's name as its `source`. Throws `no_file_input` when no file is linked.
 */
export async function importFiles(
  files: FileAccess,
  inputs: FunctionInputs,
  ctx: FunctionRunContext,
  maxBytes: number,
  read: FileReader,
): Promise<FrameItems> {
  const items = itemsOf(inputs, 'file');
  if (!items.length) throw failure('no_file_input');
  const features: FrameItems = [];
  for (const [i, item] of items.entries()) {
    const sub = part(ctx, i, items.length);
    let opened;
    try {
      opened = await files.open(ctx.user, item);
    } catch {
      throw failure('file_unreadable', { item: `file[${i}]`, name: String(item.value ?? '') });
    }
    const name = opened.name || `file[${i}]`;
    ctx.log(`${name}: ${opened.size} bytes`);
    const loaded = async () => read({ name, bytes: await readBytes(opened.stream, maxBytes, sub) }, sub);
    append(features, await named(loaded(), name));
  }
  ctx.progress(1);
  return features;
}

/**
 * All bytes of `stream`, refusing more than `maxBytes` (`file_too_large`; the stream is destroyed)
 * and stopping when the run is aborted.
 */
export async function readBytes(stream: Readable, maxBytes: number, ctx: FunctionRunContext): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      ctx.signal.throwIfAborted();
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw failure('file_too_large', { limit: mib(maxBytes) });
      chunks.push(chunk as Buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/** Bytes as MiB for messages ("512 MiB"). */
export function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}
