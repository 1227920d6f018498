import type { Tier } from '../../rest-compat/route-row.js';

export type CountedTier = Exclude<Tier, 'free'>;

/** docs/api-contract.md#endpoint-tiers: per-minute limit and the multiplier applied to the caller's daily limit. */
export const TIER_LIMITS: Record<CountedTier, { perMinute: number; dailyMultiplier: number }> = {
  light: { perMinute: 120, dailyMultiplier: 2.0 },
  medium: { perMinute: 60, dailyMultiplier: 1.0 },
  heavy: { perMinute: 10, dailyMultiplier: 0.25 },
  auth: { perMinute: 20, dailyMultiplier: 0.5 },
  write: { perMinute: 5, dailyMultiplier: 0.1 },
};

/** Heavier means fewer calls a minute; free is lightest of all. */
export function heavierTier(a: Tier, b: Tier): Tier {
  if (a === 'free') return b;
  if (b === 'free') return a;
  return TIER_LIMITS[a].perMinute <= TIER_LIMITS[b].perMinute ? a : b;
}
