import assert from 'node:assert/strict';
import { formatDuration, formatMonth, statusIntent } from './api-stats-format';

describe('API statistics formats (spec 002 §9)', () => {
  it('gives 2xx success, 3xx warning, 4xx and above danger badges', () => {
    assert.deepEqual([200, 204, 302, 304, 400, 404, 500, 503, 101].map(statusIntent), [
      'success',
      'success',
      'warning',
      'warning',
      'danger',
      'danger',
      'danger',
      'danger',
      'none',
    ]);
  });

  it('shows durations under 1000 ms in ms, else in seconds with two decimals, per language', () => {
    assert.equal(formatDuration(12.34, 'en'), '12.3 ms');
    assert.equal(formatDuration(999.9, 'en'), '999.9 ms');
    assert.equal(formatDuration(1000, 'en'), '1.00 s');
    assert.equal(formatDuration(1234.5, 'en'), '1.23 s');
    assert.equal(formatDuration(12.34, 'de'), '12,3 ms');
    assert.equal(formatDuration(2500, 'de'), '2,50 s');
  });

  it('names a month in the language', () => {
    assert.equal(formatMonth('2026-11', 'en'), 'November 2026');
    assert.equal(formatMonth('2026-03', 'de'), 'März 2026');
    assert.equal(formatMonth('odd', 'en'), 'odd');
  });
});
