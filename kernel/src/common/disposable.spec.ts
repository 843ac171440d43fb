import assert from 'node:assert/strict';
import { Disposable, DisposableCollection } from './disposable';

describe('Disposable.create', () => {
  it('runs its function once however often it is disposed', () => {
    let calls = 0;
    const d = Disposable.create(() => calls++);
    d.dispose();
    d.dispose();
    assert.equal(calls, 1);
  });
});

describe('DisposableCollection', () => {
  const recording = (log: string[], name: string) => Disposable.create(() => log.push(name));

  it('disposes its items in reverse order of addition', () => {
    const log: string[] = [];
    const collection = new DisposableCollection();
    collection.push(recording(log, 'first'));
    collection.push(recording(log, 'second'), recording(log, 'third'));
    collection.dispose();
    assert.deepEqual(log, ['third', 'second', 'first']);
    assert.equal(collection.size, 0);
    assert.equal(collection.isDisposed, true);
  });

  it('disposes each item only once when disposed twice', () => {
    let calls = 0;
    const collection = new DisposableCollection();
    collection.push({ dispose: () => calls++ });
    collection.dispose();
    collection.dispose();
    assert.equal(calls, 1);
  });

  it('disposes an item at once when it is pushed after the collection was disposed', () => {
    const log: string[] = [];
    const collection = new DisposableCollection();
    collection.dispose();
    collection.push(recording(log, 'late'));
    assert.deepEqual(log, ['late']);
    assert.equal(collection.size, 0);
  });

  it('removes and disposes an item early through the disposable push returns', () => {
    const log: string[] = [];
    const collection = new DisposableCollection();
    collection.push(recording(log, 'kept'));
    const early = collection.push(recording(log, 'early'));
    early.dispose();
    assert.deepEqual(log, ['early']);
    assert.equal(collection.size, 1);
    collection.dispose();
    assert.deepEqual(log, ['early', 'kept']);
  });

  it('disposes every item even when one throws, then throws the first error', () => {
    const log: string[] = [];
    const failure = new Error('cannot dispose');
    const collection = new DisposableCollection();
    collection.push(recording(log, 'first'));
    collection.push({
      dispose: () => {
        throw failure;
      },
    });
    collection.push(recording(log, 'third'));
    assert.throws(() => collection.dispose(), failure);
    assert.deepEqual(log, ['third', 'first']);
    assert.equal(collection.size, 0);
  });
});
