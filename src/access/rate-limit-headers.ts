import type { Tier } from '../../rest-compat/route-row.js';
import type { QuotaPlan } from './quota-plan.js';
import { bindingCounter, windowResetsAt } from './quota-plan.js';

/** The ISO form of the last reset time asked for: it changes once a day, and is on every counted response. */
let lastReset = { at: Number.NaN, iso: '' };
function resetIso(at: number): string {
  if (lastReset.at !== at) lastReset = { at, iso: new Date(at).toISOString() };
  return lastReset.iso;
}

/**
 * docs/api-contract.md#rate-limit-headers: all eight X-RateLimit-* headers; X-RateLimit-Reset as ISO 8601
 * (docs/api-contract.md#choices-where-the-specification-conflicts-or-is-silent). Limit and
 * Tier-Limit are the daily and per-minute limits that bind this call (the tier's own, or the mode's cap across tiers,
 * whichever has fewer calls left), and each Remaining is counted from the Limit shown with it.
 */
export function rateLimitHeaders(p: {
  plan: QuotaPlan;
  tier: Tier;
  /** Counts of `plan.daily` then `plan.perMinute`, as the store answered them. */
  counts: readonly number[];
  now: number;
}): Record<string, string> {
  const { plan, counts } = p;
  const daily = bindingCounter(plan.daily, counts);
  const minute = bindingCounter(plan.perMinute, counts, plan.daily.length);
  return {
    'X-RateLimit-Limit': String(daily.limit),
    'X-RateLimit-Remaining': String(Math.max(0, daily.limit - daily.used)),
    'X-RateLimit-Reset': resetIso(windowResetsAt(p.now, plan.daily[0]!.windowMs)),
    'X-RateLimit-Tier': p.tier,
    'X-RateLimit-Tier-Limit': String(minute.limit),
    'X-RateLimit-Tier-Remaining': String(Math.max(0, minute.limit - minute.used)),
    'X-RateLimit-Global-Used': String(counts[0]),
    'X-RateLimit-Global-Limit': String(plan.daily[0]!.limit),
  };
}
