/** Upper bounds (seconds) of every duration histogram this service exports. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

/**
 * One histogram series in plain numbers: a bucket count per upper bound (not cumulative), the sum and the count.
 * Recording is a short loop and three additions; the Prometheus shape is made only when /metrics is scraped.
 * @example const t = new DurationTally(); t.record(0.004); t.count // 1
 */
export class DurationTally {
  readonly buckets = new Array<number>(DURATION_BUCKETS.length + 1).fill(0);
  sum = 0;
  count = 0;

  record(seconds: number): void {
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket += 1;
    this.buckets[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
  }
}

/** Adds `n` to the count kept under `key` (a Map of bounded keys: outcomes, codes, kinds). */
export function countInto<K>(counts: Map<K, number>, key: K, n = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}
