import { UpstreamError } from './upstream-failure.js';

/** The numbers that shape the wait between two attempts at one upstream call. */
export interface RetryBackoffParams {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured; a longer ask is shortened to this. */
  retryAfterCapMs: number;
  /** Source of jitter, injectable for tests. Default Math.random. */
  random?: () => number;
}

/**
 * How long to wait before retry number `retry` (1 = the first retry) after `failure`: exponential with jitter, or the
 * upstream's Retry-After (up to a cap). Retry n waits between half and all of initialDelay × 2^(n-1), never more than
 * maxDelay.
 * @example upstreamRetryDelayMs(new UpstreamError('HTTP 429', { retryable: true, retryAfterMs: 5000 }), 1, { initialDelayMs: 100, maxDelayMs: 2000, retryAfterCapMs: 1000 }) // 1000
 */
export function upstreamRetryDelayMs(failure: unknown, retry: number, params: RetryBackoffParams): number {
  if (failure instanceof UpstreamError && failure.retryAfterMs !== undefined) {
    return Math.min(Math.max(0, failure.retryAfterMs), params.retryAfterCapMs);
  }
  const random = params.random ?? Math.random;
  const ceiling = Math.min(params.maxDelayMs, params.initialDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
