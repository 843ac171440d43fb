/**
 * The addresses of a file uploaded into a frame (docs/api.md "frame"):
 * `/api/v1/frame/{frame id}/file/{sha256}/download/` and `.../embed/`. The server writes them into
 * file datums on upload and serves them only for files it recorded for that frame; any other text
 * in a datum's `download_url` or `embed_url` is refused by the server and never used as a link.
 */
export const FRAME_FILE_URL = /^\/api\/v1\/frame\/(\d{1,9})\/file\/([0-9a-f]{64})\/(download|embed)\/$/;

export interface FrameFileAddress {
  frameId: number;
  hash: string;
  mode: 'download' | 'embed';
}

/** The parts of a frame file address, or undefined for anything else. */
export function parseFrameFileUrl(value: unknown): FrameFileAddress | undefined {
  const m = typeof value === 'string' ? FRAME_FILE_URL.exec(value) : null;
  return m ? { frameId: Number(m[1]), hash: m[2], mode: m[3] as FrameFileAddress['mode'] } : undefined;
}

/** `value` when it is a frame file address (safe as a link or image source); '' otherwise. */
export function frameFileLink(value: unknown): string {
  return parseFrameFileUrl(value) ? (value as string) : '';
}
