// The test kit first: it installs the DOM before anything loads React (specs share one process).
import '../switchboards-test-kit';
import assert from 'node:assert/strict';
import type { ApiClient } from '@werkbank/sdk/browser';
import { CanvasActions } from './canvas-actions';
import { CanvasStore } from './canvas-store';
import { FakeCanvasApi } from './fake-canvas-api';

describe('canvas actions and their undo', () => {
  let api: FakeCanvasApi;
  let store: CanvasStore;
  let actions: CanvasActions;
  beforeEach(() => {
    api = new FakeCanvasApi();
    store = new CanvasStore(api as unknown as ApiClient, 1);
    actions = new CanvasActions(api as unknown as ApiClient, store);
  });

  it('connecting into a taken slot replaces the link; undo brings the old link back, redo the new one', async () => {
    const node = await actions.addNode('string.upper', { x: 0, y: 0 });
    const a = await actions.addFrame('string', [{ value: 'a' }], { x: 0, y: 0 });
    const b = await actions.addFrame('string', [{ value: 'b' }], { x: 0, y: 0 });
    const first = await actions.connect({ node: node.resource_uri, frame: a.resource_uri, name: 'value', is_input: true });
    await actions.connect({ node: node.resource_uri, frame: b.resource_uri, name: 'value', is_input: true });
    assert.deepEqual(
      [...store.links.values()].map((l) => l.frame),
      [b.resource_uri],
    );
    assert.equal(actions.isOwnDelete(first.resource_uri), true, 'the replaced link’s deletion is ours');
    await actions.undo.undo();
    assert.deepEqual(
      api.links().map((l) => l.frame),
      [a.resource_uri],
    );
    await actions.undo.redo();
    assert.deepEqual(
      api.links().map((l) => l.frame),
      [b.resource_uri],
    );
  });

  it('undoing a delete re-creates the node, the frame with its items and their link; later undos follow the new addresses', async () => {
    const node = await actions.addNode('string.upper', { x: 5, y: 6 });
    const frame = await actions.addFrame('string', [{ value: 'x' }, { value: 'y' }], { x: 100, y: 0 }, 'Eingabe');
    await actions.connect({ node: node.resource_uri, frame: frame.resource_uri, name: 'value', is_input: true });
    await actions.move([{ uri: node.resource_uri, from: { x: 5, y: 6 }, to: { x: 50, y: 60 } }]);
    await actions.remove([node.resource_uri, frame.resource_uri]);
    assert.equal(api.objects.size, 0);
    assert.equal(store.nodes.size + store.frames.size + store.links.size, 0);

    await actions.undo.undo();
    const nodes = [...api.objects.values()].filter((o) => String(o.resource_uri).includes('/node/'));
    const frames = [...api.objects.values()].filter((o) => String(o.resource_uri).includes('/frame/'));
    assert.equal(nodes.length, 1);
    assert.equal(frames[0].name, 'Eingabe');
    assert.deepEqual(api.content.get(String(frames[0].resource_uri)), [{ value: 'x' }, { value: 'y' }]);
    assert.deepEqual(
      api.links().map((l) => [l.node, l.frame]),
      [[nodes[0].resource_uri, frames[0].resource_uri]],
    );
    assert.deepEqual([nodes[0].ui_x, nodes[0].ui_y], [50, 60]);

    // The move before the delete now applies to the re-created node.
    await actions.undo.undo();
    assert.deepEqual([nodes[0].ui_x, nodes[0].ui_y], [5, 6]);
    assert.equal(api.calls.at(-1), `PATCH ${String(nodes[0].resource_uri)}`);
  });

  it('Ctrl+Z while a move is still being saved takes back the move, not the insert before it', async () => {
    const note = await actions.addNote('Hinweis', { x: 0, y: 0 });
    let answer = () => undefined as void;
    api.hold = new Promise<void>((resolve) => (answer = resolve));
    const moving = actions.move([{ uri: note.resource_uri, from: { x: 0, y: 0 }, to: { x: 10, y: 10 } }]);
    const undoing = actions.undo.undo();
    api.hold = undefined;
    answer();
    await moving;
    assert.equal((await undoing)?.label, 'move');
    const saved = api.objects.get(note.resource_uri)!;
    assert.deepEqual([saved.ui_x, saved.ui_y], [0, 0]);
    assert.equal((await actions.undo.redo())?.label, 'move');
    assert.deepEqual([saved.ui_x, saved.ui_y], [10, 10]);
  });

  it('a late insert event whose fetch was under way when the object was deleted does not bring it back', async () => {
    let answer!: (o: unknown) => void;
    const slow = { get: () => new Promise((resolve) => (answer = resolve)) } as unknown as ApiClient;
    const canvas = new CanvasStore(slow, 1);
    canvas.apply({ type: 'NODE_INSERT', resource_uri: '/api/v1/node/9/' });
    canvas.remove('/api/v1/node/9/');
    answer({ id: 9, resource_uri: '/api/v1/node/9/' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(canvas.nodes.size, 0);
    canvas.apply({ type: 'NODE_INSERT', resource_uri: '/api/v1/node/9/' });
    assert.equal(canvas.nodes.size, 0);
  });

  it('an undo whose object someone else deleted is dropped instead of resurrecting it', async () => {
    const note = await actions.addNote('Hinweis', { x: 0, y: 0 });
    await actions.move([{ uri: note.resource_uri, from: { x: 0, y: 0 }, to: { x: 10, y: 10 } }]);
    // A colleague deletes it: the live _DELETE was not ours.
    await api.delete(note.resource_uri);
    assert.equal(actions.isOwnDelete(note.resource_uri), false);
    actions.undo.invalidate(note.resource_uri);
    assert.equal(actions.undo.canUndo, false);
  });
});
