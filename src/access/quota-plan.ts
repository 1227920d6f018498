import type { ModeLimits } from './caller-limits.js';
import { type CountedTier, TIER_LIMITS } from './tiers.js';

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

/** The three counters one counted call moves, and their limits. */
export interface QuotaPlan {
  globalDaily: { key: string; limit: number; windowMs: number };
  tierDaily: { key: string; limit: number; windowMs: number };
  tierMinute: { key: string; limit: number; windowMs: number };
}

/**
 * How a caller's mode limits and a route's tier combine (README "Limits"): the mode's daily limit is the
 * global daily cap; a tier's daily limit is that times its multiplier; a tier's per-minute limit is SPEC's
 * figure scaled by the mode's per-minute limit over 60, so "most operations" (medium) get the mode's limit.
 * @example quotaPlan('anonymous:1.2.3.4', { daily: 100, perMinute: 30 }, 'medium') // 100/day, 30/min
 */
export function quotaPlan(callerKey: string, limits: ModeLimits, tier: CountedTier): QuotaPlan {
  const t = TIER_LIMITS[tier];
  return {
    globalDaily: globalDailyCounter(callerKey, limits),
    tierDaily: {
      key: `q:${callerKey}:${tier}:day`,
      limit: Math.max(1, Math.floor(limits.daily * t.dailyMultiplier)),
      windowMs: DAY_MS,
    },
    tierMinute: {
      key: `q:${callerKey}:${tier}:min`,
      limit: Math.max(1, Math.floor((t.perMinute * limits.perMinute) / 60)),
      windowMs: MINUTE_MS,
    },
  };
}

/** The caller's daily counter across tiers (the global cap): what /api/usage reports. */
export function globalDailyCounter(callerKey: string, limits: ModeLimits): QuotaPlan['globalDaily'] {
  return { key: `q:${callerKey}:day`, limit: limits.daily, windowMs: DAY_MS };
}

/** Credits an API key spent today; only ever read or incremented, never a limit. */
export function creditsUsedCounter(keyId: string): QuotaPlan['globalDaily'] {
  return { key: `credits-used:${keyId}:day`, limit: Number.MAX_SAFE_INTEGER, windowMs: DAY_MS };
}

/** Next window boundary after `now` (midnight UTC for daily windows). */
export function windowResetsAt(now: number, windowMs: number): number {
  return (Math.floor(now / windowMs) + 1) * windowMs;
}
