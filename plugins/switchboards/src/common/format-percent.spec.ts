import assert from 'node:assert/strict';
import { formatPercent } from './format-percent';

describe('formatPercent (spec 000 §9: one decimal)', () => {
  it('writes the reader’s notation', () => {
    assert.equal(formatPercent(42.54, 'en'), '42.5 %');
    assert.equal(formatPercent(42.54, 'de'), '42,5 %');
    assert.equal(formatPercent(0, 'de'), '0,0 %');
  });
});
