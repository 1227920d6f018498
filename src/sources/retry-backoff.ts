import { DelegateBackoff, type IBackoffFactory, type IRetryBackoffContext } from 'cockatiel';
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
 * Exponential backoff with jitter that honours an upstream's Retry-After (up to a cap).
 * Attempt n waits between half and all of initialDelay × 2^(n-1), never more than maxDelay.
 * @example retry(handleAll, { maxAttempts: 2, backoff: upstreamRetryBackoff({ initialDelayMs: 100, maxDelayMs: 2000, retryAfterCapMs: 1000 }) })
 */
export function upstreamRetryBackoff(params: RetryBackoffParams): IBackoffFactory<IRetryBackoffContext<unknown>> {
  const random = params.random ?? Math.random;
  return new DelegateBackoff<IRetryBackoffContext<unknown>>((context) => {
    const failure = 'error' in context.result ? context.result.error : undefined;
    if (failure instanceof UpstreamError && failure.retryAfterMs !== undefined) {
      return Math.min(Math.max(0, failure.retryAfterMs), params.retryAfterCapMs);
    }
    const ceiling = Math.min(params.maxDelayMs, params.initialDelayMs * 2 ** Math.max(0, context.attempt - 1));
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  });
}
