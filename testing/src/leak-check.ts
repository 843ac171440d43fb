import { setDisposableTracker, type Disposable, type DisposableTracker } from '@werkbank/kernel';

/** Records every disposable made while it is installed, with where it was made. */
export class RecordingDisposableTracker implements DisposableTracker {
  private readonly live = new Map<Disposable, string>();
  onCreated(d: Disposable): void {
    this.live.set(d, new Error().stack?.split('\n').slice(3, 9).join('\n') ?? '');
  }
  onDisposed(d: Disposable): void {
    this.live.delete(d);
  }
  onOwned(d: Disposable): void {
    this.live.delete(d);
  }
  /** Where each disposable that was neither disposed nor handed to an owner was made. */
  leaks(): string[] {
    return [...this.live.values()];
  }
}

/**
 * Fails each test of the suite that registers or subscribes without disposing what it got (VS
 * Code's ensureNoDisposablesAreLeakedInTestSuite). Call it at the top of a `describe`.
 */
export function ensureNoDisposablesAreLeakedInTestSuite(): void {
  let tracker: RecordingDisposableTracker | undefined;
  beforeEach(() => {
    tracker = new RecordingDisposableTracker();
    setDisposableTracker(tracker);
  });
  afterEach(function () {
    setDisposableTracker(undefined);
    const leaks = tracker?.leaks() ?? [];
    tracker = undefined;
    if (leaks.length && this.currentTest?.state !== 'failed')
      throw new Error(`${leaks.length} disposable(s) leaked by this test; made at:\n${leaks.join('\n---\n')}`);
  });
}
