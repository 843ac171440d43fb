import { ApiError, type EntityManager } from '@werkbank/sdk/node';
import { currentByName } from './datum-store';

/** Longest accepted file path (characters). */
export const MAX_PATH = 500;

/**
 * A file datum's name: a relative path with '/' between folders. Absolute paths, '..' and '.'
 * segments, backslashes and control characters are refused with 400 invalid_path, so a name can
 * never point outside the depot when files are written out again (e.g. an export to disk).
 */
export function checkFilePath(raw: unknown, field = 'path'): string {
  const path = typeof raw === 'string' ? raw.trim() : '';
  const segments = path.split('/');
  const bad =
    !path ||
    path.length > MAX_PATH ||
    path.startsWith('/') ||
    path.includes('\\') ||
    /^[a-z]:/i.test(path) ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(path) ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad)
    throw ApiError.badRequest('invalid_path', 'magazine:errors.invalid_path', { path: path.slice(0, 80), max: MAX_PATH }, field);
  return path;
}

/** 409 duplicate_name when the depot already holds a file with this name. */
export async function checkUniqueName(m: EntityManager, depotId: number, name: string, except?: number): Promise<void> {
  const existing = await currentByName(m, depotId, name);
  if (existing !== undefined && existing !== except) {
    throw new ApiError(409, 'duplicate_name', 'magazine:errors.duplicate_name', { name });
  }
}
