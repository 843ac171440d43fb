// The test kit first: it installs the DOM before anything loads React (specs share one process).
import '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { IndexedSocketStorage, NodeEmitter } from './socket-positions';

const at = (x: number, y: number) => ({ x, y });

describe('canvas socket positions (indexed as Rete stores them)', () => {
  it('answers the latest position of a socket, and nothing once its element is gone', () => {
    const s = new IndexedSocketStorage();
    const a = document.createElement('div');
    const b = document.createElement('div');
    s.add({ element: a, nodeId: 'n1', side: 'input', key: 'value', position: at(1, 2) });
    s.add({ element: a, nodeId: 'n1', side: 'output', key: 'result', position: at(3, 4) });
    s.add({ element: b, nodeId: 'n2', side: 'input', key: 'value', position: at(5, 6) });
    assert.deepEqual(s.getPosition({ nodeId: 'n1', side: 'input', key: 'value' }), at(1, 2));
    assert.deepEqual(s.getPosition({ nodeId: 'n1', side: 'output', key: 'result' }), at(3, 4));
    assert.equal(s.getPosition({ nodeId: 'n1', side: 'output', key: 'value' }), null);
    // The same socket measured again on the same element replaces its position.
    s.add({ element: a, nodeId: 'n1', side: 'input', key: 'value', position: at(7, 8) });
    assert.deepEqual(s.getPosition({ nodeId: 'n1', side: 'input', key: 'value' }), at(7, 8));
    assert.equal(s.snapshot().length, 3);
    assert.deepEqual(
      s
        .ofNode('n1')
        .map((p) => p.key)
        .sort(),
      ['result', 'value'],
    );
    s.remove(a);
    assert.equal(s.getPosition({ nodeId: 'n1', side: 'input', key: 'value' }), null);
    assert.deepEqual(s.ofNode('n1'), []);
    assert.deepEqual(s.getPosition({ nodeId: 'n2', side: 'input', key: 'value' }), at(5, 6));
    assert.equal(s.snapshot().length, 1);
  });

  it('a socket drawn again on a new element keeps the newest until that one goes', () => {
    const s = new IndexedSocketStorage();
    const old = document.createElement('div');
    const fresh = document.createElement('div');
    s.add({ element: old, nodeId: 'n1', side: 'input', key: 'value', position: at(1, 1) });
    s.add({ element: fresh, nodeId: 'n1', side: 'input', key: 'value', position: at(2, 2) });
    assert.deepEqual(s.getPosition({ nodeId: 'n1', side: 'input', key: 'value' }), at(2, 2));
    s.remove(old);
    assert.deepEqual(s.getPosition({ nodeId: 'n1', side: 'input', key: 'value' }), at(2, 2));
    s.remove(fresh);
    assert.equal(s.getPosition({ nodeId: 'n1', side: 'input', key: 'value' }), null);
  });

  it("calls a node's handlers for its changes only, and every general handler", () => {
    const e = new NodeEmitter();
    const heard: string[] = [];
    const off1 = e.on('n1', (d) => heard.push(`n1:${d.nodeId}`));
    e.on('n2', (d) => heard.push(`n2:${d.nodeId}`));
    const offAll = e.listen((d) => heard.push(`all:${d.nodeId}`));
    e.emit({ nodeId: 'n1' });
    e.emit({ nodeId: 'n2', side: 'input', key: 'value' });
    off1();
    offAll();
    e.emit({ nodeId: 'n1' });
    e.emit({ nodeId: 'n2' });
    assert.deepEqual(heard, ['all:n1', 'n1:n1', 'all:n2', 'n2:n2', 'n2:n2']);
  });
});
