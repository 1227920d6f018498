import { apiKeyOwner, type QuotaCounter } from '../store/store.js';
import { type AccessMode, DEFAULT_MODE_LIMITS, type ModeLimits } from './caller-limits.js';
import { type CountedTier, TIER_LIMITS } from './tiers.js';

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

/** The counters one counted call moves, all or none, and their limits. */
export interface QuotaPlan {
  /** The mode's daily limit across tiers (the global cap, first), then the tier's own where it is lower. */
  daily: QuotaCounter[];
  /** The mode's per-minute limit across tiers (first), then the tier's own where it is lower. */
  perMinute: QuotaCounter[];
  /** `daily` then `perMinute`: what the store is asked to consume. */
  counters: QuotaCounter[];
}

/**
 * How a caller's mode limits and a route's tier combine
 * (docs/api-contract.md#choices-where-the-specification-conflicts-or-is-silent). The mode's daily and per-minute limits
 * are caps across all tiers. A tier's daily limit is the mode's times the tier's multiplier; its per-minute limit is
 * the contract's figure (Light 120 … Write 5, docs/api-contract.md#endpoint-tiers), scaled by the mode's configured
 * per-minute limit over the contract's for that mode
 * (×1 by default). A tier limit at or above the mode's cap never binds, so it is not counted at all.
 * An API key's counters are durable: they decide when its credits are charged.
 * @example quotaPlan({ key: 'ip:1.2.3.4', mode: 'anonymous', limits: { daily: 100, perMinute: 30 } }, 'heavy')
 * // daily: 100 across tiers, 25 heavy; per minute: 30 across tiers, 10 heavy
 */
export function quotaPlan(caller: { key: string; mode: AccessMode; limits: ModeLimits }, tier: CountedTier): QuotaPlan {
  const { key, limits } = caller;
  const t = TIER_LIMITS[tier];
  // Every counter of one call is the caller's: a store spread over shards keeps them together.
  const own = caller.mode === 'api_key' ? { durable: true, owner: key } : { owner: key };
  const tierDaily = Math.max(1, Math.floor(limits.daily * t.dailyMultiplier));
  const scale = limits.perMinute / DEFAULT_MODE_LIMITS[caller.mode].perMinute;
  const tierMinute = Math.max(1, Math.floor(t.perMinute * scale));
  const daily: QuotaCounter[] = [{ ...globalDailyCounter(key, limits), ...own }];
  if (tierDaily < limits.daily) daily.push({ key: `q:${key}:${tier}:day`, limit: tierDaily, windowMs: DAY_MS, ...own });
  const perMinute: QuotaCounter[] = [{ key: `q:${key}:min`, limit: limits.perMinute, windowMs: MINUTE_MS, ...own }];
  if (tierMinute < limits.perMinute) {
    perMinute.push({ key: `q:${key}:${tier}:min`, limit: tierMinute, windowMs: MINUTE_MS, ...own });
  }
  return { daily, perMinute, counters: [...daily, ...perMinute] };
}

/** The caller's daily counter across tiers (the global cap): what /api/usage reports. */
export function globalDailyCounter(callerKey: string, limits: ModeLimits): QuotaCounter {
  return { key: `q:${callerKey}:day`, limit: limits.daily, windowMs: DAY_MS, owner: callerKey };
}

/** Credits an API key spent today; only ever read or moved with a debit, never a limit. */
export function creditsUsedCounter(keyId: string): QuotaCounter {
  return {
    key: `credits-used:${keyId}:day`,
    limit: Number.MAX_SAFE_INTEGER,
    windowMs: DAY_MS,
    durable: true,
    owner: apiKeyOwner(keyId),
  };
}

/**
 * Of counters and their counts, the one with the fewest calls left (the tighter limit on a tie): the limit a caller
 * runs into first, which the rate-limit headers and refusals name.
 */
export function bindingCounter(
  counters: readonly QuotaCounter[],
  counts: readonly number[],
  /** Where the counts of `counters` start in `counts`. */
  offset = 0,
): { limit: number; used: number } {
  let best = { limit: counters[0]!.limit, used: counts[offset]! };
  for (let i = 1; i < counters.length; i++) {
    const limit = counters[i]!.limit;
    const used = counts[offset + i]!;
    const left = limit - used;
    const bestLeft = best.limit - best.used;
    if (left < bestLeft || (left === bestLeft && limit < best.limit)) best = { limit, used };
  }
  return best;
}

/** Next window boundary after `now` (midnight UTC for daily windows). */
export function windowResetsAt(now: number, windowMs: number): number {
  return (Math.floor(now / windowMs) + 1) * windowMs;
}
