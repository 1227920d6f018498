import { countInto, DurationTally } from './duration-tally.js';

/** Why an upstream call failed, as a metric label (a fixed set: src/sources/upstream-failure.ts decides). */
export type UpstreamFailureKind =
  | 'timeout'
  | 'network'
  | 'rate_limited'
  | 'http_5xx'
  | 'http_4xx'
  | 'invalid_reply'
  | 'breaker_open'
  | 'other';

/**
 * Where a source's answer came from: `hit` its fresh cache, `shared` a call already in flight for the same key,
 * `miss` a new upstream call, `stale` an expired cached value served because the upstream failed.
 */
export type SourceCacheResult = 'hit' | 'shared' | 'miss' | 'stale';

/** One upstream source's counts since start, in plain numbers (exported on scrape by operator-metrics.ts). */
export class SourceTally {
  /** Attempts that reached the upstream (retries included). */
  requests = 0;
  readonly duration = new DurationTally();
  readonly errors = new Map<UpstreamFailureKind, number>();
  readonly answers = new Map<SourceCacheResult, number>();

  recordAttempt(latencyMs: number): void {
    this.requests += 1;
    this.duration.record(latencyMs / 1000);
  }

  recordError(kind: UpstreamFailureKind): void {
    countInto(this.errors, kind);
  }

  recordAnswer(result: SourceCacheResult): void {
    countInto(this.answers, result);
  }
}
