/** A depot path (spec 001 §2.1 "Depot path editor"): the folder's full path and the depot's name. */
export interface DepotPath {
  /** Folder names joined by '/', '' for the root. */
  folder: string;
  name: string;
}

/** spec 001 §5.1: a depot path is split at the last slash into folder and depot name. */
export function splitDepotPath(path: string): DepotPath {
  const cut = path.lastIndexOf('/');
  if (cut < 0) return { folder: '', name: path };
  return { folder: path.slice(0, cut).replace(/^\/+|\/+$/g, ''), name: path.slice(cut + 1) };
}

/** The path text of a folder and a depot name: `a/b` + `c` → `a/b/c`; the root gives just the name. */
export function joinDepotPath({ folder, name }: DepotPath): string {
  const f = folder.replace(/^\/+|\/+$/g, '');
  return f ? `${f}/${name}` : name;
}

/** A depot's address (`/api/v1/depot/3/`): how a datum of type `depot` names its depot (issue 14 item 12). */
export function isDepotAddress(value: string): boolean {
  return /^\/api\/v1\/depot\/[1-9][0-9]{0,8}\/$/.test(value);
}
