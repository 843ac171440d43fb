import type { FolderNode } from './magazine-types';

/** Every folder of the tree, depth first, each with its depth (0 for top-level folders). */
export function flattenTree(nodes: FolderNode[], depth = 0): Array<FolderNode & { depth: number }> {
  return nodes.flatMap((n) => [{ ...n, depth }, ...flattenTree(n.children ?? [], depth + 1)]);
}

/** The folder with `id` anywhere in the tree. */
export function findFolder(nodes: FolderNode[], id: number): FolderNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inner = findFolder(n.children ?? [], id);
    if (inner) return inner;
  }
  return undefined;
}

/** The folders from the top down to `id` (inclusive); empty for the root or an unknown id. */
export function folderTrail(nodes: FolderNode[], id: number | undefined): FolderNode[] {
  if (id === undefined) return [];
  for (const n of nodes) {
    if (n.id === id) return [n];
    const inner = folderTrail(n.children ?? [], id);
    if (inner.length) return [n, ...inner];
  }
  return [];
}

/** The ids of a folder and every folder below it. */
export function subtreeIds(nodes: FolderNode[], id: number): Set<number> {
  const root = findFolder(nodes, id);
  return new Set(root ? flattenTree([root]).map((n) => n.id) : [id]);
}

/**
 * The parent choices for folder `id` (spec 002 §2 "Depot folder editor", §4): every folder except
 * the folder itself and its descendants, since a folder cannot be moved under itself.
 */
export function parentChoices(nodes: FolderNode[], id: number | undefined): Array<FolderNode & { depth: number }> {
  const excluded = id === undefined ? new Set<number>() : subtreeIds(nodes, id);
  return flattenTree(nodes).filter((n) => !excluded.has(n.id));
}
