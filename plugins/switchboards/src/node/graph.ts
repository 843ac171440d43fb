/** The shape of a switchboard as the engine sees it: which node feeds which through frames. */
export interface GraphLink {
  node_id: number;
  frame_id: number;
  is_input: boolean;
}

export interface Graph {
  /** node → the nodes whose outputs it reads. */
  upstream: Map<number, Set<number>>;
  /** node → the nodes that read its outputs. */
  downstream: Map<number, Set<number>>;
}

/** Node A precedes node B when A writes a frame that B reads. */
export function buildGraph(nodeIds: Iterable<number>, links: GraphLink[]): Graph {
  const upstream = new Map<number, Set<number>>();
  const downstream = new Map<number, Set<number>>();
  for (const id of nodeIds) {
    upstream.set(id, new Set());
    downstream.set(id, new Set());
  }
  const writers = new Map<number, number[]>();
  for (const l of links) if (!l.is_input) writers.set(l.frame_id, [...(writers.get(l.frame_id) ?? []), l.node_id]);
  for (const l of links) {
    if (!l.is_input) continue;
    for (const w of writers.get(l.frame_id) ?? []) {
      if (!upstream.has(l.node_id) || !downstream.has(w)) continue;
      upstream.get(l.node_id)!.add(w);
      downstream.get(w)!.add(l.node_id);
    }
  }
  return { upstream, downstream };
}

/** Every node reachable downstream from `from` (not including them unless reached again). */
export function reachable(from: Iterable<number>, edges: Map<number, Set<number>>): Set<number> {
  const seen = new Set<number>();
  const stack = [...from];
  while (stack.length) {
    for (const next of edges.get(stack.pop()!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen;
}

/** True when the links contain a cycle (a node that, through frames, feeds itself). */
export function hasCycle(graph: Graph): boolean {
  const indegree = new Map([...graph.upstream].map(([id, ups]) => [id, ups.size]));
  const ready = [...indegree].filter(([, n]) => n === 0).map(([id]) => id);
  let visited = 0;
  while (ready.length) {
    const id = ready.pop()!;
    visited++;
    for (const d of graph.downstream.get(id) ?? []) {
      const n = indegree.get(d)! - 1;
      indegree.set(d, n);
      if (n === 0) ready.push(d);
    }
  }
  return visited !== indegree.size;
}

/** The nodes of `subset` in an order where every node comes after the nodes it reads from. */
export function topologicalOrder(graph: Graph, subset: Set<number>): number[] {
  const indegree = new Map<number, number>();
  for (const id of subset) indegree.set(id, [...graph.upstream.get(id)!].filter((u) => subset.has(u)).length);
  const ready = [...subset].filter((id) => indegree.get(id) === 0).sort((a, b) => a - b);
  const out: number[] = [];
  while (ready.length) {
    const id = ready.shift()!;
    out.push(id);
    for (const d of graph.downstream.get(id) ?? []) {
      if (!subset.has(d)) continue;
      const n = indegree.get(d)! - 1;
      indegree.set(d, n);
      if (n === 0) ready.push(d);
    }
  }
  return out;
}
