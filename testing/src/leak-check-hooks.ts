import { setDisposableTracker } from '@werkbank/kernel';
import { takeShapeViolations } from './api-shapes';
import { RecordingDisposableTracker } from './leak-check';

let tracker: RecordingDisposableTracker | undefined;

/**
 * Mocha root hooks of the unit suites (`npm run test:unit` requires this file): every test fails
 * when it leaves a registration or subscription neither disposed nor handed to an owner, or when
 * its fake API answered something the server's OpenAPI schema says the server never would.
 */
export const mochaHooks = {
  beforeEach(): void {
    takeShapeViolations();
    tracker = new RecordingDisposableTracker();
    setDisposableTracker(tracker);
  },
  afterEach(this: Mocha.Context): void {
    setDisposableTracker(undefined);
    const leaks = tracker?.leaks() ?? [];
    tracker = undefined;
    if (leaks.length && this.currentTest?.state !== 'failed')
      throw new Error(`${leaks.length} disposable(s) leaked by “${this.currentTest?.title}”; made at:\n${leaks.join('\n---\n')}`);
    const shapes = [...new Set(takeShapeViolations())];
    if (shapes.length && this.currentTest?.state !== 'failed') throw new Error(shapes.join('\n'));
  },
};
