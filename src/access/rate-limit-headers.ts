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
 * docs/api-contract.md#rate-limit-headers: all eight X-RateLimit-* headers, named in lower case as they go on the wire
 * (fastify lower-cases every name it is given: a name already in lower case is neither copied nor looked up again on
 * each call); X-RateLimit-Reset as ISO 8601
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
    'x-ratelimit-limit': String(daily.limit),
    'x-ratelimit-remaining': String(Math.max(0, daily.limit - daily.used)),
    'x-ratelimit-reset': resetIso(windowResetsAt(p.now, plan.daily[0]!.windowMs)),
    'x-ratelimit-tier': p.tier,
    'x-ratelimit-tier-limit': String(minute.limit),
    'x-ratelimit-tier-remaining': String(Math.max(0, minute.limit - minute.used)),
    'x-ratelimit-global-used': String(counts[0]),
    'x-ratelimit-global-limit': String(plan.daily[0]!.limit),
  };
}
