import { setDisposableTracker } from '@werkbank/kernel';
import { RecordingDisposableTracker } from './leak-check';

let tracker: RecordingDisposableTracker | undefined;

/**
 * Mocha root hooks of the unit suites (`npm run test:unit` requires this file): every test fails
 * when it leaves a registration or subscription neither disposed nor handed to an owner.
 */
export const mochaHooks = {
  beforeEach(): void {
    tracker = new RecordingDisposableTracker();
    setDisposableTracker(tracker);
  },
  afterEach(this: Mocha.Context): void {
    setDisposableTracker(undefined);
    const leaks = tracker?.leaks() ?? [];
    tracker = undefined;
    if (leaks.length && this.currentTest?.state !== 'failed')
      throw new Error(`${leaks.length} disposable(s) leaked by “${this.currentTest?.title}”; made at:\n${leaks.join('\n---\n')}`);
  },
};
