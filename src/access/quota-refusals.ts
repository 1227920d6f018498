import { ApiError } from '../errors/api-error.js';
import type { QuotaCounter } from '../store/store.js';
import { DAY_MS, MINUTE_MS, windowResetsAt } from './quota-plan.js';
import type { CountedTier } from './tiers.js';

/** Whole seconds from `now` until `at`, at least 1: a Retry-After. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** The tightest limit among counters that a refused call found reached; undefined when none is. */
export function reachedLimit(
  counters: readonly QuotaCounter[],
  counts: readonly number[],
  offset: number,
): number | undefined {
  let reached: number | undefined;
  for (let i = 0; i < counters.length; i++) {
    const { limit } = counters[i]!;
    if (counts[offset + i]! >= limit && (reached === undefined || limit < reached)) reached = limit;
  }
  return reached;
}

/** The 429 of a per-minute or daily limit reached, with its Retry-After. */
export function rateLimited(p: {
  tier: CountedTier;
  /** The limit that was reached. */
  limit: number;
  perMinute: boolean;
  headers: Record<string, string>;
  now: number;
}): ApiError {
  const retryAfter = secondsUntil(windowResetsAt(p.now, p.perMinute ? MINUTE_MS : DAY_MS), p.now);
  const { limit } = p;
  const message = p.perMinute
    ? `Rate limit exceeded: ${requestsPer(limit, 'minute')} on the ${p.tier} tier`
    : `Daily limit exceeded: ${requestsPer(limit, 'day')} on the ${p.tier} tier`;
  return new ApiError(
    'RATE_LIMITED',
    message,
    {
      retryAfter,
      tier: p.tier,
      limit,
      suggestion: p.perMinute
        ? `Retry after ${countOf(retryAfter, 'second')}, sign in with SIWE or use an API key for higher limits`
        : 'Sign in with SIWE, use an API key with credits, or pay per request with x402',
    },
    { ...p.headers, 'Retry-After': String(retryAfter) },
  );
}

/** docs/api-contract.md#errors: the key's daily limit is reached and it has no credits left. */
export function insufficientCredits(p: {
  tier: CountedTier;
  /** The daily limit that was reached. */
  limit: number;
  headers: Record<string, string>;
  now: number;
}): ApiError {
  const retryAfter = secondsUntil(windowResetsAt(p.now, DAY_MS), p.now);
  const { limit } = p;
  return new ApiError(
    'INSUFFICIENT_CREDITS',
    `Insufficient Credits: the key's daily limit of ${countOf(limit, 'request')} on the ${p.tier} tier is reached and its credits are used up`,
    {
      retryAfter,
      tier: p.tier,
      limit,
      credits: 0,
      suggestion:
        'Buy credits for this key (POST /api/user/credits/{id}/purchase) or wait until the daily limit resets',
    },
    { ...p.headers, 'Retry-After': String(retryAfter) },
  );
}

/** docs/api-contract.md#limits-by-access-mode: 10 concurrent requests per key. */
export function tooManyInFlight(tier: CountedTier, limit: number): ApiError {
  return new ApiError(
    'RATE_LIMITED',
    `Concurrency limit exceeded: ${countOf(limit, 'request')} in flight at once per API key`,
    {
      retryAfter: 1,
      tier,
      limit,
      suggestion: `Wait for a response before sending more than ${countOf(limit, 'request')} at once with this key`,
    },
    { 'Retry-After': '1' },
  );
}

/**
 * A limit said in words, in the singular for one.
 * @example requestsPer(1, 'day') // '1 request per day'
 */
export function requestsPer(limit: number, unit: 'minute' | 'day'): string {
  return `${countOf(limit, 'request')} per ${unit}`;
}

/**
 * A count and its noun, in the singular for one: every number a message says goes through here.
 * @example countOf(1, 'second') // '1 second'
 */
export function countOf(count: number, noun: 'request' | 'second' | 'call'): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}
