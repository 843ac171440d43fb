import type { EntityManager } from '@werkbank/sdk/node';
import { FRAME_PATH } from './switchboard-access';
import { parseFrameFileUrl } from '../common/frame-file-url';

/** What the server recorded when a blob was uploaded into a frame: the blob store's type and size. */
export interface FrameFileRecord {
  frame_id: number;
  hash: string;
  mime_type: string;
  size: number;
}

/** The address of a file uploaded into a frame; `download/` and `embed/` follow it. */
export const frameFileUrl = (frameId: number, hash: string) => `${FRAME_PATH}${frameId}/file/${hash}/`;

/**
 * Records that `hash` was put into frame `frameId` (switchboard_frame_file), in the caller's
 * transaction. Called by the upload route, and when a file datum is copied from a frame the caller
 * may download it from (frame-file-fields.ts). A second record of the same pair keeps the first.
 */
export async function recordFrameFile(
  m: EntityManager,
  frameId: number,
  file: { hash: string; mime_type: string; size: number },
): Promise<void> {
  await m.query(
    `INSERT INTO switchboard_frame_file (frame_id, hash, mime_type, size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (frame_id, hash) DO NOTHING`,
    [frameId, file.hash, file.mime_type, file.size],
  );
}

/** The records of these (frame, hash) pairs, keyed `frame:hash`. */
export async function frameFileRecords(
  m: EntityManager,
  pairs: Array<{ frameId: number; hash: string }>,
): Promise<Map<string, FrameFileRecord>> {
  if (!pairs.length) return new Map();
  const rows = (await m.query(
    `SELECT frame_id, hash, mime_type, size FROM switchboard_frame_file
      WHERE (frame_id, hash) IN (SELECT * FROM unnest($1::int[], $2::varchar[]))`,
    [pairs.map((p) => p.frameId), pairs.map((p) => p.hash)],
  )) as FrameFileRecord[];
  return new Map(rows.map((r) => [recordKey(r.frame_id, r.hash), { ...r, size: Number(r.size) }]));
}

export const recordKey = (frameId: number, hash: string) => `${frameId}:${hash}`;

/**
 * Of these frame file addresses (`download/` form), those the current content of the frame they
 * name still holds — with a record, the condition under which the download route serves them.
 */
export async function heldFrameFiles(m: EntityManager, urls: string[]): Promise<Set<string>> {
  const frameIds = [...new Set(urls.map((u) => parseFrameFileUrl(u)?.frameId).filter((id) => id !== undefined))];
  if (!frameIds.length) return new Set();
  const rows = (await m.query(
    `SELECT DISTINCT f.id, e->>'download_url' AS url
       FROM switchboard_frame f JOIN switchboard_content c ON c.hash = f.content_hash, jsonb_array_elements(c.items) e
      WHERE f.id = ANY($1) AND e->>'download_url' = ANY($2)`,
    [frameIds, [...new Set(urls)]],
  )) as { id: number; url: string }[];
  // Held by the frame the address names, not by another one that passed the datum on.
  return new Set(rows.filter((r) => parseFrameFileUrl(r.url)?.frameId === r.id).map((r) => r.url));
}
