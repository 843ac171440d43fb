import assert from 'node:assert/strict';
import { Disposable, DisposableCollection, Emitter, Registry, setDisposableTracker } from '@werkbank/kernel';
import { RecordingDisposableTracker } from './leak-check';

describe('the disposable leak check', () => {
  let tracker: RecordingDisposableTracker;
  beforeEach(() => {
    tracker = new RecordingDisposableTracker();
  });

  function watching(body: () => void): string[] {
    setDisposableTracker(tracker);
    try {
      body();
    } finally {
      setDisposableTracker(undefined);
    }
    return tracker.leaks();
  }

  it('reports a registration that is never disposed, with where it was made', () => {
    const registry = new Registry<{ id: string }>('thing');
    const leaks = watching(() => void registry.add({ id: 'probe.a' }, 'probe'));
    assert.equal(leaks.length, 1);
    assert.match(leaks[0], /leak-check\.spec\.ts/);
    registry.dispose();
  });

  it('reports nothing once it is disposed, handed to a collection, or its emitter ends', () => {
    const emitter = new Emitter<void>();
    const collection = new DisposableCollection();
    const leaks = watching(() => {
      Disposable.create(() => undefined).dispose();
      collection.push(Disposable.create(() => undefined));
      emitter.event(() => undefined);
      emitter.dispose();
    });
    assert.deepEqual(leaks, []);
    collection.dispose();
  });
});
