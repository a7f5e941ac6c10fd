// A Prometheus-style histogram: fixed upper bounds, counts in a typed array. observe() is a short scan over a dozen
// bounds and allocates nothing, so hot loops (the scheduler, once per check) can feed it.

/** Scheduler lateness bounds, seconds: a healthy scheduler sits in the first buckets, a stalled one in the last. */
export const LATENESS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export class BucketHistogram {
  /** Upper bounds (inclusive, Prometheus `le`), ascending. */
  readonly bounds: Float64Array;
  /** Per-bucket counts, not cumulative; the last slot is the +Inf bucket. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(bounds: readonly number[]) {
    for (let i = 1; i < bounds.length; i++) if (!(bounds[i] > bounds[i - 1])) throw new Error("histogram bounds must ascend");
    this.bounds = Float64Array.from(bounds);
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && value > b[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}
