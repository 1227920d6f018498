import type { Tier } from '../../rest-compat/route-row.js';
import type { QuotaPlan } from './quota-plan.js';
import { windowResetsAt } from './quota-plan.js';

/** The ISO form of the last reset time asked for: it changes once a day, and is on every counted response. */
let lastReset = { at: Number.NaN, iso: '' };
function resetIso(at: number): string {
  if (lastReset.at !== at) lastReset = { at, iso: new Date(at).toISOString() };
  return lastReset.iso;
}

/** SPEC "Response headers": all eight X-RateLimit-* headers; X-RateLimit-Reset as ISO 8601 (README). */
export function rateLimitHeaders(p: {
  plan: QuotaPlan;
  tier: Tier;
  globalUsed: number;
  tierDailyUsed: number;
  tierMinuteUsed: number;
  now: number;
}): Record<string, string> {
  const { plan } = p;
  const dailyRemaining = Math.min(plan.tierDaily.limit - p.tierDailyUsed, plan.globalDaily.limit - p.globalUsed);
  return {
    'X-RateLimit-Limit': String(plan.tierDaily.limit),
    'X-RateLimit-Remaining': String(Math.max(0, dailyRemaining)),
    'X-RateLimit-Reset': resetIso(windowResetsAt(p.now, plan.tierDaily.windowMs)),
    'X-RateLimit-Tier': p.tier,
    'X-RateLimit-Tier-Limit': String(plan.tierMinute.limit),
    'X-RateLimit-Tier-Remaining': String(Math.max(0, plan.tierMinute.limit - p.tierMinuteUsed)),
    'X-RateLimit-Global-Used': String(p.globalUsed),
    'X-RateLimit-Global-Limit': String(plan.globalDaily.limit),
  };
}
