import { viewAddress } from './view-rules';

/** The largest preview image a view takes (decision 0092): 5 MB, counted in steps of 1024 like formatBytes. */
export const VIEW_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The image types a preview image may have. SVG is not among them: it can carry script, and the
 * image is served from the workbench's own origin (decision 0092).
 */
export const VIEW_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ViewImageType = (typeof VIEW_IMAGE_TYPES)[number];

/** The file name extension a stored image is offered under. */
export const VIEW_IMAGE_EXTENSIONS: Record<ViewImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** Bytes imageTypeOf needs to decide. */
export const IMAGE_SIGNATURE_BYTES = 12;

const startsWith = (head: Uint8Array, at: number, bytes: readonly number[]) => bytes.every((b, i) => head[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The type of an image by its first bytes (its signature), never by a name or a declared type:
 * PNG, JPEG, WebP (a RIFF file of form WEBP) or GIF (87a, 89a). Undefined for anything else,
 * SVG and other text included.
 */
export function imageTypeOf(head: Uint8Array): ViewImageType | undefined {
  if (startsWith(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, 0, ascii('RIFF')) && startsWith(head, 8, ascii('WEBP'))) return 'image/webp';
  if (startsWith(head, 0, ascii('GIF87a')) || startsWith(head, 0, ascii('GIF89a'))) return 'image/gif';
  return undefined;
}

/** The address an uploaded preview image of view `id` is served at (and uploaded to, removed at). */
export const viewImageAddress = (id: number): string => `${viewAddress(id)}image/`;

/** The reply of `POST /api/v1/view/{id}/image/`: the view's new `image` value, the stored size and type. */
export interface ViewImageUpload {
  image: string;
  size: number;
  mime: ViewImageType;
}
