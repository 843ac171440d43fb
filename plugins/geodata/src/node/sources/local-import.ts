import { constants } from 'node:fs';
import { open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import type { FrameItems, FunctionDescriptor } from '@werkbank/sdk/node';
import { sourcesFailure } from './download-text';
import { GeodataServices } from '../geodata-services';

/** Most files one folder import takes (a folder with more is refused: name a smaller one). */
export const LOCAL_IMPORT_MAX_FILES = 1000;

/** Whether `path` (resolved, no symbolic links left) is `root` or lies below it. */
function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The real path of `path` when it lies inside one of `roots` after every symbolic link is
 * resolved (so a link cannot lead out of them); `path_outside_roots` otherwise, `path_missing`
 * when it does not exist. Relative paths count from the first root.
 */
export async function confinedPath(path: string, roots: string[]): Promise<string> {
  if (!roots.length) throw sourcesFailure('local_import_off');
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
  // Normalised first: `root/../../etc/x` must not tell whether /etc/x exists.
  const wanted = resolve(realRoots[0], path);
  let real: string;
  try {
    real = await realpath(wanted);
  } catch {
    // Say "missing" only inside the roots: outside them, whether a path exists is not the user's business.
    if (realRoots.some((r) => inside(wanted, r))) throw sourcesFailure('path_missing', { path });
    throw sourcesFailure('path_outside_roots', { path });
  }
  if (!realRoots.some((r) => inside(real, r))) throw sourcesFailure('path_outside_roots', { path });
  return real;
}

/** The regular files a confined path names: the file itself, or the files of the folder (sorted, not recursive). */
async function filesOf(real: string, path: string): Promise<string[]> {
  const info = await stat(real);
  if (info.isFile()) return [real];
  if (!info.isDirectory()) throw sourcesFailure('not_a_file', { path });
  const entries = (await readdir(real, { withFileTypes: true })).filter((e) => e.isFile() && !e.name.startsWith('.'));
  if (entries.length > LOCAL_IMPORT_MAX_FILES)
    throw sourcesFailure('too_many_files', { path, count: entries.length, limit: LOCAL_IMPORT_MAX_FILES });
  return entries.map((e) => join(real, e.name)).sort();
}

/**
 * Opens `name` (a confined real path) for reading and checks what was opened: a folder swapped for
 * a symbolic link after the check, or a file for a pipe or device, is refused (`path_outside_roots`,
 * `not_a_file`); the descriptor's own path must still lie inside the roots.
 */
async function openConfined(name: string, roots: string[]): Promise<FileHandle> {
  const handle = await open(name, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => {
    throw sourcesFailure('path_missing', { path: name });
  });
  try {
    if (!(await handle.stat()).isFile()) throw sourcesFailure('not_a_file', { path: name });
    const opened = await realpath(`/proc/self/fd/${handle.fd}`).catch(() => name);
    await confinedPath(opened, roots);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/**
 * `file.import`: files from the server's own disk, for administrators who keep data next to the
 * server (spec 001 §7: "local path, offered only when a permission flag is set"). Only
 * superusers may run it, and only below the folders FILE_IMPORT_ROOTS names; symbolic links are
 * resolved before the check, and the file is opened without following a link swapped in since.
 */
export function fileImport(services: GeodataServices): FunctionDescriptor {
  return {
    id: 'file.import',
    version: '1',
    superuser_required: true,
    verbose_name: { de: 'Lokale Datei importieren', en: 'Import local file' },
    doc: {
      de:
        'Liest Dateien von der Festplatte des Servers und gibt sie als Dateien aus: path nennt eine Datei oder einen Ordner ' +
        '(dann alle Dateien darin, ohne Unterordner und versteckte Dateien, höchstens 1000). Nur für Superuser, und nur unterhalb ' +
        'der Ordner, die ein Administrator in FILE_IMPORT_ROOTS freigibt; relative Pfade gelten ab dem ersten dieser Ordner. ' +
        'Symbolische Verknüpfungen werden aufgelöst und dürfen nicht aus diesen Ordnern hinausführen.',
      en:
        "Reads files from the server's disk and outputs them as files: path names a file or a folder (then every file in it, " +
        'without subfolders and hidden files, at most 1000). Superusers only, and only below the folders an administrator allows ' +
        'in FILE_IMPORT_ROOTS; relative paths count from the first of them. Symbolic links are resolved and may not lead out of ' +
        'these folders.',
    },
    inputs: [{ name: 'path', content_type: 'string' }],
    outputs: [{ name: 'file', content_type: 'file' }],
    run: async (inputs, ctx) => {
      const paths = (inputs.path ?? []) as FrameItems;
      const file: FrameItems = [];
      for (const [i, item] of paths.entries()) {
        const path = typeof item.value === 'string' ? item.value.trim() : '';
        if (!path) throw sourcesFailure('path_empty', { item: `path[${i}]` });
        const real = await confinedPath(path, services.config.fileImportRoots);
        for (const name of await filesOf(real, path)) {
          ctx.signal.throwIfAborted();
          const handle = await openConfined(name, services.config.fileImportRoots);
          const stream = handle.createReadStream({ signal: ctx.signal });
          let datum: Record<string, unknown>;
          try {
            datum = await ctx.storeFile(stream, { name: basename(name) });
          } finally {
            stream.destroy();
          }
          ctx.log(`imported ${name} (${String(datum.size)} bytes)`);
          file.push(datum);
        }
        ctx.progress((i + 1) / paths.length);
      }
      return { file };
    },
  };
}
