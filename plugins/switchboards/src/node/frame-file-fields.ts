import { ApiError, type FrameItems, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { parseFrameFileUrl } from '../common/frame-file-url';
import { switchboardFor } from './switchboard-access';
import { checkFileName } from './frame-file-name';
import {
  frameFileRecords,
  frameFileUrl,
  heldFrameFiles,
  recordFrameFile,
  recordKey,
  type FrameFileRecord,
} from './frame-file-records';
import { SwitchboardsServices } from './switchboards-services';

type Item = Record<string, unknown>;

export interface FileItemOptions {
  /** Where item `i` sits in the request, for the field of an error (`content[3]`, `inputs.Karte[0]`). */
  place: (i: number) => string;
  /**
   * A datum naming a file of another frame that the caller may download from there right now is
   * copied into this frame: the file is recorded for it and the addresses are rewritten to it.
   * Off for workflow inputs (their write happens in the engine's transaction, not this one).
   */
  bring: boolean;
  /** Addresses that cannot stay are dropped instead of refused (import and duplicate of switchboards). */
  strip: boolean;
}

/** A datum that names a frame file: the server owns its download_url, embed_url, mime_type and size. */
const linked = (item: Item) => item.download_url !== undefined || item.embed_url !== undefined;

/** The server-owned fields of a datum, as one comparable text. */
const linkKey = (item: Item) => JSON.stringify([item.download_url, item.embed_url, item.mime_type, item.size]);

/** The frame and blob a datum's addresses name, when both (or the one present) are frame file addresses of one file. */
function addressOf(item: Item): { frameId: number; hash: string } | undefined {
  const d = item.download_url === undefined ? undefined : parseFrameFileUrl(item.download_url);
  const e = item.embed_url === undefined ? undefined : parseFrameFileUrl(item.embed_url);
  if ((item.download_url !== undefined && d?.mode !== 'download') || (item.embed_url !== undefined && e?.mode !== 'embed'))
    return undefined;
  const a = d ?? e;
  if (!a || (d && e && (d.frameId !== e.frameId || d.hash !== e.hash))) return undefined;
  return { frameId: a.frameId, hash: a.hash };
}

const refused = (place: string, field: string) =>
  ApiError.badRequest('invalid_value', 'switchboards:errors.file_fields', { index: place }, `${place}.${field}`);

/**
 * Checks the file datums written into a frame of type file (or one derived from it) by a caller —
 * content PATCH, frame creation with content, create-in-frame, item PATCH, workflow inputs; engine
 * writes do not come here (docs/api.md "frame", decision 0018):
 * - A name (`value`) the frame does not hold yet must pass checkFileName (400 `invalid_path`).
 * - A datum with `download_url` or `embed_url` keeps these and `mime_type`, `size` exactly as a
 *   datum of the frame's current content has them (a datum saved back, renamed or moved), or names
 *   a file uploaded into this frame (switchboard_frame_file); missing fields are filled in from the
 *   record. With `bring`, it may also name a file another frame serves to the caller (see
 *   FileItemOptions). Anything else is refused with 400 `invalid_value` (or dropped with `strip`).
 * Returns the items to store; may record files for the frame in the caller's transaction.
 */
export async function checkFileItems(
  r: ResourceRequest,
  services: Pick<SwitchboardsServices, 'types'>,
  frame: { id: number; type: string },
  items: FrameItems,
  current: FrameItems,
  opts: FileItemOptions,
): Promise<FrameItems> {
  if (!services.types.isAssignable(frame.type, 'file')) return items;
  const names = new Set(current.map((c) => c.value));
  const out = (items as Item[]).map((item, i) => namedItem(item, names, opts.place(i)));
  const keptLinks = new Set((current as Item[]).filter(linked).map(linkKey));
  const open = out.map((item, i) => ({ i, item })).filter(({ item }) => linked(item) && !keptLinks.has(linkKey(item)));
  if (!open.length) return out as FrameItems;
  const addresses = open.map(({ item }) => addressOf(item));
  const found = addresses.filter((a) => a !== undefined);
  const records = await frameFileRecords(r.manager, found);
  const foreign = opts.bring ? found.filter((a) => a.frameId !== frame.id && records.has(recordKey(a.frameId, a.hash))) : [];
  const served = await servedToCaller(r, foreign);
  const brought = new Map<string, FrameFileRecord>();
  open.forEach(({ i, item }, n) => {
    const a = addresses[n];
    const record = a && records.get(recordKey(a.frameId, a.hash));
    const ok = !!record && (a.frameId === frame.id || served.has(`${frameFileUrl(a.frameId, a.hash)}download/`));
    if (!ok) {
      if (!opts.strip) throw refused(opts.place(i), 'download_url');
      const { download_url: _d, embed_url: _e, ...rest } = item;
      out[i] = rest;
      return;
    }
    for (const [field, value] of [
      ['mime_type', record.mime_type],
      ['size', record.size],
    ] as const) {
      if (item[field] !== undefined && item[field] !== value && !opts.strip) throw refused(opts.place(i), field);
    }
    const url = frameFileUrl(frame.id, record.hash);
    out[i] = {
      ...item,
      mime_type: record.mime_type,
      size: record.size,
      download_url: `${url}download/`,
      embed_url: `${url}embed/`,
    };
    if (a.frameId !== frame.id) brought.set(record.hash, record);
  });
  for (const record of brought.values()) await recordFrameFile(r.manager, frame.id, record);
  return out as FrameItems;
}

/** The datum with its name checked (and trimmed) when the frame does not hold a datum of that name yet. */
function namedItem(item: Item, names: Set<unknown>, place: string): Item {
  if (typeof item.value !== 'string' || names.has(item.value)) return item;
  try {
    const name = checkFileName(item.value);
    return name === item.value ? item : { ...item, value: name };
  } catch (e) {
    if (e instanceof ApiError) throw new ApiError(e.status, e.code, e.key, e.params, `${place}.value`);
    throw e;
  }
}

/**
 * Of these recorded files of other frames, the download addresses the download route would serve
 * the caller now: the caller may read the frame's switchboard and the frame's content holds the file.
 */
async function servedToCaller(r: ResourceRequest, files: Array<{ frameId: number; hash: string }>): Promise<Set<string>> {
  if (!files.length) return new Set();
  const frames = (await r.manager.query(`SELECT id, switchboard_id FROM switchboard_frame WHERE id = ANY($1)`, [
    [...new Set(files.map((f) => f.frameId))],
  ])) as Row[];
  const readable = new Set<number>();
  for (const sb of new Set(frames.map((f) => f.switchboard_id as number))) {
    const ok = await switchboardFor(r, sb, 'read').then(
      () => true,
      (e: unknown) => {
        if (e instanceof ApiError) return false;
        throw e;
      },
    );
    if (ok) frames.filter((f) => f.switchboard_id === sb).forEach((f) => readable.add(f.id as number));
  }
  const urls = files.filter((f) => readable.has(f.frameId)).map((f) => `${frameFileUrl(f.frameId, f.hash)}download/`);
  return heldFrameFiles(r.manager, urls);
}
