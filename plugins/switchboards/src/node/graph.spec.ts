import assert from 'node:assert/strict';
import { buildGraph, hasCycle, reachable, topologicalOrder } from './graph';

// n1 writes f1; n2 reads f1 and writes f2; n3 reads f2; n4 stands alone.
const links = [
  { node_id: 1, frame_id: 1, is_input: false },
  { node_id: 2, frame_id: 1, is_input: true },
  { node_id: 2, frame_id: 2, is_input: false },
  { node_id: 3, frame_id: 2, is_input: true },
];

describe('switchboard graph', () => {
  it('connects a writer of a frame with its readers', () => {
    const g = buildGraph([1, 2, 3, 4], links);
    assert.deepEqual([...g.upstream.get(2)!], [1]);
    assert.deepEqual([...g.downstream.get(2)!], [3]);
    assert.deepEqual([...g.upstream.get(4)!], []);
  });

  it('finds everything downstream of a node', () => {
    const g = buildGraph([1, 2, 3, 4], links);
    assert.deepEqual([...reachable([1], g.downstream)].sort(), [2, 3]);
    assert.deepEqual([...reachable([3], g.downstream)], []);
  });

  it('detects cycles, including a node reading what it writes', () => {
    assert.equal(hasCycle(buildGraph([1, 2, 3], links)), false);
    assert.equal(hasCycle(buildGraph([1, 2, 3], [...links, { node_id: 1, frame_id: 2, is_input: true }])), true);
    assert.equal(
      hasCycle(
        buildGraph(
          [5],
          [
            { node_id: 5, frame_id: 9, is_input: false },
            { node_id: 5, frame_id: 9, is_input: true },
          ],
        ),
      ),
      true,
    );
  });

  it('orders a subset so every node follows the nodes it reads from', () => {
    const g = buildGraph([1, 2, 3, 4], links);
    assert.deepEqual(topologicalOrder(g, new Set([3, 2, 1])), [1, 2, 3]);
    assert.deepEqual(topologicalOrder(g, new Set([3, 2])), [2, 3]);
  });
});
