/**
 * Edits of a view's layer tree for the layer tree editor (spec 002 §5): rows addressed by their
 * place, moves within and between groups, inserts and removals — each returning a new tree.
 */
import { newLayerGroup, newViewLayer, viewLayers, type ViewLayer, type ViewLayerGroup } from './view-tree';

/** A row: a layer entry or a group, at `index` among its kind in the group at `group` (layergroups indexes from the root). */
export interface RowPlace {
  group: number[];
  kind: 'layer' | 'group';
  index: number;
}

/** A row of the editor's table, in display order: each group's layers, then its groups, depth first. */
export interface TreeRow {
  place: RowPlace;
  depth: number;
  layer?: ViewLayer;
  group?: ViewLayerGroup;
}

export function groupAt(root: ViewLayerGroup, path: readonly number[]): ViewLayerGroup {
  return path.reduce((g, i) => g.layergroups[i], root);
}

/** The rows to show: collapsed groups hide what they hold. */
export function treeRows(root: ViewLayerGroup, collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (group: ViewLayerGroup, path: number[], depth: number) => {
    group.layers.forEach((layer, index) => rows.push({ place: { group: path, kind: 'layer', index }, depth, layer }));
    group.layergroups.forEach((g, index) => {
      const place: RowPlace = { group: path, kind: 'group', index };
      rows.push({ place, depth, group: g });
      if (!collapsed.has(placeKey(place))) walk(g, [...path, index], depth + 1);
    });
  };
  walk(root, [], 0);
  return rows;
}

export const placeKey = (p: RowPlace) => `${p.group.join('.')}/${p.kind}/${p.index}`;

/** A copy of the tree with the group at `path` replaced by `change(group)`. */
export function withGroup(
  root: ViewLayerGroup,
  path: readonly number[],
  change: (g: ViewLayerGroup) => ViewLayerGroup,
): ViewLayerGroup {
  if (!path.length) return change(root);
  const [head, ...rest] = path;
  return { ...root, layergroups: root.layergroups.map((g, i) => (i === head ? withGroup(g, rest, change) : g)) };
}

/** The tree with the row at `place` changed. */
export function updateRow(
  root: ViewLayerGroup,
  place: RowPlace,
  change: { layer?: Partial<ViewLayer>; group?: Partial<ViewLayerGroup> },
): ViewLayerGroup {
  return withGroup(root, place.group, (g) =>
    place.kind === 'layer'
      ? { ...g, layers: g.layers.map((l, i) => (i === place.index ? { ...l, ...change.layer } : l)) }
      : { ...g, layergroups: g.layergroups.map((c, i) => (i === place.index ? { ...c, ...change.group } : c)) },
  );
}

export function removeRow(root: ViewLayerGroup, place: RowPlace): ViewLayerGroup {
  return withGroup(root, place.group, (g) =>
    place.kind === 'layer'
      ? { ...g, layers: g.layers.filter((_, i) => i !== place.index) }
      : { ...g, layergroups: g.layergroups.filter((_, i) => i !== place.index) },
  );
}

/** Moves a row one place up or down among its siblings of its kind; at either end nothing changes. */
export function shiftRow(root: ViewLayerGroup, place: RowPlace, by: -1 | 1): ViewLayerGroup {
  return withGroup(root, place.group, (g) => {
    const list = place.kind === 'layer' ? [...g.layers] : [...g.layergroups];
    const to = place.index + by;
    if (to < 0 || to >= list.length) return g;
    [list[place.index], list[to]] = [list[to], list[place.index]];
    return place.kind === 'layer' ? { ...g, layers: list as ViewLayer[] } : { ...g, layergroups: list as ViewLayerGroup[] };
  });
}

const isInside = (path: readonly number[], outer: readonly number[]) =>
  path.length >= outer.length && outer.every((v, i) => path[i] === v);

/**
 * Moves the row at `from` to the place of the row at `to` (dragging a row onto another): a layer
 * dropped on a layer goes before it, in that layer's group; a layer dropped on a group goes to that
 * group's end; a group dropped on a group goes before it. A group is never moved into itself.
 * Undefined when the move is not possible.
 */
export function moveRow(root: ViewLayerGroup, from: RowPlace, to: RowPlace): ViewLayerGroup | undefined {
  if (placeKey(from) === placeKey(to)) return undefined;
  if (from.kind === 'group') {
    if (
      to.kind !== 'group' ||
      isInside(to.group, [...from.group, from.index]) ||
      isInside([...to.group, to.index], [...from.group, from.index])
    )
      return undefined;
    const moving = groupAt(root, [...from.group, from.index]);
    // Removing the group first shifts the places after it in the same parent.
    const target = {
      ...to,
      group: adjust(to.group, from),
      index: sameList(from, to) && to.index > from.index ? to.index - 1 : to.index,
    };
    const without = removeRow(root, from);
    return withGroup(without, target.group, (g) => ({ ...g, layergroups: insertAt(g.layergroups, target.index, moving) }));
  }
  const moving = groupAt(root, from.group).layers[from.index];
  const without = removeRow(root, from);
  if (to.kind === 'group') return withGroup(without, [...to.group, to.index], (g) => ({ ...g, layers: [...g.layers, moving] }));
  const index = sameList(from, to) && to.index > from.index ? to.index - 1 : to.index;
  return withGroup(without, to.group, (g) => ({ ...g, layers: insertAt(g.layers, index, moving) }));
}

const sameList = (a: RowPlace, b: RowPlace) => a.kind === b.kind && a.group.join('.') === b.group.join('.');

/** A group path after the group at `removed` left its parent (later siblings move up by one). */
function adjust(path: readonly number[], removed: RowPlace): number[] {
  const depth = removed.group.length;
  if (path.length <= depth || !isInside(path, removed.group) || path[depth] < removed.index) return [...path];
  const out = [...path];
  out[depth] -= 1;
  return out;
}

function insertAt<T>(list: readonly T[], index: number, item: T): T[] {
  const out = [...list];
  out.splice(Math.max(0, Math.min(index, out.length)), 0, item);
  return out;
}

/** A free entry id (`l1`, `l2`, …) for a new layer entry. */
export function freeEntryId(root: ViewLayerGroup): string {
  const used = new Set(viewLayers(root).map((l) => l.id));
  let n = used.size + 1;
  for (let i = 1; i <= n; i++)
    if (!used.has(`l${i}`)) {
      n = i;
      break;
    }
  return `l${n}`;
}

/** The tree with a new entry for `layer` (its address) at the end of the root group. */
export function addLayer(root: ViewLayerGroup, layer: string, name = ''): ViewLayerGroup {
  return { ...root, layers: [...root.layers, { ...newViewLayer(layer, freeEntryId(root)), name }] };
}

export function addGroup(root: ViewLayerGroup, name: string): ViewLayerGroup {
  return { ...root, layergroups: [...root.layergroups, newLayerGroup(name)] };
}
