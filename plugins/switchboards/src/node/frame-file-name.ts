import { ApiError, type FrameItems } from '@werkbank/sdk/node';

/** Longest accepted file name (characters), as in the Magazine. */
export const MAX_FILE_NAME = 500;

/**
 * A file datum's name in a frame: a relative path with '/' between folders, by the Magazine's rule
 * (docs/api.md "Uploads"): absolute paths, '.' and '..' segments, backslashes, drive letters and
 * control characters are refused with 400 `invalid_path`, so a name never points outside a folder
 * when files are written out again.
 */
export function checkFileName(raw: unknown): string {
  const path = typeof raw === 'string' ? raw.trim() : '';
  const bad =
    !path ||
    path.length > MAX_FILE_NAME ||
    path.startsWith('/') ||
    path.includes('\\') ||
    /^[a-z]:/i.test(path) ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(path) ||
    path.split('/').some((s) => s === '' || s === '.' || s === '..');
  if (bad) {
    throw ApiError.badRequest(
      'invalid_path',
      'switchboards:errors.file_name',
      { path: path.slice(0, 80), max: MAX_FILE_NAME },
      'path',
    );
  }
  return path;
}

/** 409 `duplicate_name`: the frame already holds a file of this name. */
export const duplicateFileName = (name: string) =>
  new ApiError(409, 'duplicate_name', 'switchboards:errors.duplicate_file', { name });

/** Throws duplicateFileName when `items` hold a file named `name`. */
export function checkUniqueFileName(items: FrameItems, name: string): void {
  if (items.some((item) => item.value === name)) throw duplicateFileName(name);
}

/**
 * A name for a copy of file `name` that no item of `items` holds: `name (2).ext`, `name (3).ext`, …
 * in the same folder (the extension is what follows the last '.' of the file's own name).
 */
export function copyFileName(items: FrameItems, name: string): string {
  const taken = new Set(items.map((item) => item.value));
  const slash = name.lastIndexOf('/') + 1;
  const dot = name.lastIndexOf('.');
  const cut = dot > slash ? dot : name.length;
  for (let n = 2; ; n++) {
    const candidate = `${name.slice(0, cut)} (${n})${name.slice(cut)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The upload's name rules for a file datum renamed by an item PATCH (docs/api.md "frame"): a new
 * `value` must be a valid name (400 `invalid_path`) that no other item of the frame holds (409
 * `duplicate_name`). Returns the name to store (trimmed); an unchanged name passes as it is.
 */
export function renamedFileName(items: FrameItems, index: number, value: unknown): unknown {
  if (value === items[index]?.value) return value;
  const name = checkFileName(value);
  checkUniqueFileName(
    items.filter((_, i) => i !== index),
    name,
  );
  return name;
}
