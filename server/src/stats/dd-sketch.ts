/**
 * A DDSketch (Masson, Rim, Lee: "DDSketch: A fast and fully-mergeable quantile sketch with
 * relative-error guarantees", VLDB 2019) with the logarithmic mapping and an unbounded store.
 *
 * A value x ≥ MIN_VALUE counts in bucket i = ceil(log_γ x), γ = (1 + α) / (1 − α); bucket i holds
 * (γ^(i−1), γ^i] and stands for 2γ^i / (γ + 1), which is within α of every value in it. So a
 * quantile is within the relative accuracy α of the true sample quantile (the value of rank
 * ⌊q·(n − 1)⌋ in sorted order). Values below MIN_VALUE count as MIN_VALUE.
 *
 * Two sketches with the same α merge exactly by adding their bucket counts: the result is the
 * sketch of the union of their values, bucket for bucket. That is why the API statistics store
 * bucket counts and add them (decision 0044).
 */
export class DDSketch {
  /** Values smaller than this count as this (1 µs when values are milliseconds). */
  static readonly MIN_VALUE = 1e-3;
  readonly gamma: number;
  private readonly lnGamma: number;
  private readonly counts = new Map<number, number>();
  private total = 0;

  /** `relativeAccuracy` α in (0, 1), e.g. 0.01 for 1 %. */
  constructor(readonly relativeAccuracy = 0.01) {
    if (!(relativeAccuracy > 0 && relativeAccuracy < 1)) throw new RangeError('relativeAccuracy must be in (0, 1)');
    this.gamma = (1 + relativeAccuracy) / (1 - relativeAccuracy);
    this.lnGamma = Math.log(this.gamma);
  }

  /** The bucket index of a value. */
  indexOf(value: number): number {
    return Math.ceil(Math.log(Math.max(value, DDSketch.MIN_VALUE)) / this.lnGamma);
  }

  /** The value a bucket stands for. */
  valueOf(index: number): number {
    return (2 * Math.pow(this.gamma, index)) / (this.gamma + 1);
  }

  add(value: number): void {
    this.addToBucket(this.indexOf(value), 1);
  }

  /** Adds `count` values to bucket `index` (merging stored buckets). */
  addToBucket(index: number, count: number): void {
    if (!Number.isInteger(index) || !(count > 0)) return;
    this.counts.set(index, (this.counts.get(index) ?? 0) + count);
    this.total += count;
  }

  /** Adds every value of `other`; both must have the same relative accuracy. */
  merge(other: DDSketch): void {
    if (other.relativeAccuracy !== this.relativeAccuracy) throw new RangeError('cannot merge sketches of different accuracy');
    for (const [i, c] of other.counts) this.addToBucket(i, c);
  }

  get count(): number {
    return this.total;
  }

  /** The non-empty buckets, ascending by index. */
  buckets(): Array<[index: number, count: number]> {
    return [...this.counts].sort((a, b) => a[0] - b[0]);
  }

  /** The q-quantile (0 ≤ q ≤ 1) within the relative accuracy; undefined when empty. */
  quantile(q: number): number | undefined {
    if (!this.total || q < 0 || q > 1) return undefined;
    const rank = q * (this.total - 1);
    let seen = 0;
    const sorted = this.buckets();
    for (const [i, c] of sorted) {
      seen += c;
      if (seen > rank) return this.valueOf(i);
    }
    return this.valueOf(sorted[sorted.length - 1][0]);
  }
}
