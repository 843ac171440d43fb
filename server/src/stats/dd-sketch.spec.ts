import assert from 'node:assert/strict';
import { DDSketch } from './dd-sketch';

/** A reproducible stream of durations (xorshift), log-normal-ish like request times. */
function durations(n: number, seed: number): number[] {
  let x = seed;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  return Array.from({ length: n }, () => Math.exp(next() * 8 - 2) * (1 + next()));
}

/** The sample quantile DDSketch bounds: the value of rank ⌊q·(n − 1)⌋. */
function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))];
}

describe('DDSketch (API statistics, decision 0044)', () => {
  it('answers every quantile within its relative accuracy', () => {
    for (const alpha of [0.01, 0.02]) {
      const values = durations(20_000, 7);
      const sketch = new DDSketch(alpha);
      for (const v of values) sketch.add(v);
      assert.equal(sketch.count, values.length);
      for (const q of [0, 0.1, 0.5, 0.9, 0.95, 0.99, 1]) {
        const truth = exact(values, q);
        const got = sketch.quantile(q)!;
        assert.ok(Math.abs(got - truth) <= alpha * truth * (1 + 1e-9), `q ${q}: ${got} vs ${truth} (α ${alpha})`);
      }
    }
  });

  it('merges exactly: two sketches added equal one sketch of all values, bucket for bucket', () => {
    const a = durations(5000, 3);
    const b = durations(7000, 11);
    const left = new DDSketch();
    const right = new DDSketch();
    const all = new DDSketch();
    for (const v of a) {
      left.add(v);
      all.add(v);
    }
    for (const v of b) {
      right.add(v);
      all.add(v);
    }
    left.merge(right);
    assert.deepEqual(left.buckets(), all.buckets());
    assert.equal(left.quantile(0.95), all.quantile(0.95));
  });

  it('rebuilds from stored buckets', () => {
    const original = new DDSketch();
    for (const v of durations(1000, 5)) original.add(v);
    const copy = new DDSketch();
    for (const [i, c] of original.buckets()) copy.addToBucket(i, c);
    assert.deepEqual(copy.buckets(), original.buckets());
    assert.equal(copy.quantile(0.5), original.quantile(0.5));
  });

  it('is empty until a value is added, and counts tiny values as the smallest one', () => {
    const s = new DDSketch();
    assert.equal(s.quantile(0.5), undefined);
    s.add(0);
    s.add(DDSketch.MIN_VALUE / 10);
    assert.equal(s.count, 2);
    assert.ok(Math.abs(s.quantile(1)! - DDSketch.MIN_VALUE) <= 0.01 * DDSketch.MIN_VALUE);
  });

  it('refuses an accuracy outside (0, 1) and merging sketches of different accuracy', () => {
    assert.throws(() => new DDSketch(0), RangeError);
    assert.throws(() => new DDSketch(1), RangeError);
    assert.throws(() => new DDSketch(0.01).merge(new DDSketch(0.02)), RangeError);
  });
});
