import { randomUUID } from 'node:crypto';
import type { ApiError } from '../errors/api-error.js';
import { BoundedMemo } from '../memo/bounded-memo.js';
import type { AccessTallies } from '../observability/access-tallies.js';
import type { QuotaDecision, Store } from '../store/store.js';
import type { Caller } from './identify-caller.js';
import { creditsUsedCounter, DAY_MS, type QuotaPlan, quotaPlan, windowResetsAt } from './quota-plan.js';
import { insufficientCredits, rateLimited, reachedLimit, secondsUntil } from './quota-refusals.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import type { CountedTier } from './tiers.js';

/** Quota plans remembered per tier (callers seen most recently). */
const PLANS_KEPT = 10_000;

/** The error a caller past its daily limit gets instead of the 429 (an x402 offer), or undefined for the 429. */
export type DailyLimitError = (p: {
  headers: Record<string, string>;
  limit: number;
  retryAfter: number;
}) => ApiError | undefined;

/** What a counted call was admitted with: its X-RateLimit-* headers, and for a call paid with a credit its refund. */
export interface CountedCall {
  headers: Record<string, string>;
  /** Gives the credit back (once): for a call that is not charged (docs/access.md#api-keys-and-credits). */
  refund?: () => void;
}

/** A call counted already (with an API key's slot, by admitKeyCall at `at`): its quota decision. */
export interface DecidedCount {
  at: number;
  result: QuotaDecision;
}

/**
 * Counts one call of a caller on a tier (or takes the count `decided` already); resolves to what it was admitted
 * with, or throws the refusal.
 */
export type AdmitCounted = (
  caller: Caller,
  tier: CountedTier,
  onDailyLimit?: DailyLimitError,
  decided?: DecidedCount,
) => Promise<CountedCall>;

/** What counts calls: the admission, and the plan of counters it counts a caller's calls on. */
export interface CountedAdmission {
  admit: AdmitCounted;
  /**
   * {@link AdmitCounted} at once, for a caller without an API key where the store decides at once
   * (Store.consumeQuotaNow): what `admit` resolves to, or the refusal it rejects with, thrown. Undefined where it
   * cannot decide at once; nothing is counted then.
   */
  admitNow: (caller: Caller, tier: CountedTier, onDailyLimit?: DailyLimitError) => CountedCall | undefined;
  planFor: (caller: Caller, tier: CountedTier) => QuotaPlan;
}

/**
 * A caller's plan per tier, the same on every call (its limits only change with a new API key record): made once and
 * remembered for the callers seen most recently.
 */
function quotaPlans(): (caller: Caller, tier: CountedTier) => QuotaPlan {
  const plans = new Map<CountedTier, BoundedMemo<string, { limits: Caller['limits']; plan: QuotaPlan }>>();
  return (caller, tier) => {
    let memo = plans.get(tier);
    if (!memo) {
      memo = new BoundedMemo(PLANS_KEPT);
      plans.set(tier, memo);
    }
    let entry = memo.peek(caller.key);
    if (
      entry === undefined ||
      entry.limits.daily !== caller.limits.daily ||
      entry.limits.perMinute !== caller.limits.perMinute
    ) {
      entry = { limits: caller.limits, plan: quotaPlan(caller, tier) };
      memo.set(caller.key, entry);
    }
    return entry.plan;
  };
}

/**
 * Counts each call against the caller's daily and per-minute quotas in the store, atomically; past its daily limit an
 * API key pays one credit per call (still within its per-minute limits), anyone else is refused until midnight UTC.
 * @example const counted = countedAdmission({ store }); const { headers } = await counted.admit(caller, 'light')
 */
export function countedAdmission(p: {
  store: Pick<Store, 'consumeQuota' | 'consumeQuotaNow' | 'debitCredit' | 'refundDebit'>;
  now: () => number;
  tallies?: AccessTallies;
}): CountedAdmission {
  const { store, tallies } = p;
  const planFor = quotaPlans();
  /** A call past a per-minute limit is refused, whoever calls (a credit does not buy more calls per minute). */
  const refusePastMinute = (caller: Caller, tier: CountedTier, plan: QuotaPlan, at: number, counts: number[]) => {
    const minuteLimit = reachedLimit(plan.perMinute, counts, plan.daily.length);
    if (minuteLimit === undefined) return;
    tallies?.quotaRefused(caller.mode, 'per_minute');
    const headers = rateLimitHeaders({ plan, tier, counts, now: at });
    throw rateLimited({ tier, limit: minuteLimit, perMinute: true, headers, now: at });
  };
  /** Past the daily limit, a caller without an API key is refused until midnight UTC (or offered a payment). */
  const refusePastDay = (
    caller: Caller,
    tier: CountedTier,
    plan: QuotaPlan,
    at: number,
    counts: number[],
    onDailyLimit: DailyLimitError | undefined,
  ): never => {
    const limit = reachedLimit(plan.daily, counts, 0)!;
    const headers = rateLimitHeaders({ plan, tier, counts, now: at });
    const retryAfter = secondsUntil(windowResetsAt(at, DAY_MS), at);
    tallies?.quotaRefused(caller.mode, 'daily');
    throw (
      onDailyLimit?.({ headers, limit, retryAfter }) ?? rateLimited({ tier, limit, perMinute: false, headers, now: at })
    );
  };
  const admit: AdmitCounted = async (caller, tier, onDailyLimit, decided) => {
    const plan = planFor(caller, tier);
    const at = decided?.at ?? p.now();
    const result = decided?.result ?? (await store.consumeQuota({ counters: plan.counters, now: at }));
    // The common case first, with nothing made for the refusals below.
    if (result.admitted) return { headers: rateLimitHeaders({ plan, tier, counts: result.counts, now: at }) };
    refusePastMinute(caller, tier, plan, at, result.counts);
    if (!caller.apiKey) return refusePastDay(caller, tier, plan, at, result.counts, onDailyLimit);

    // Daily limit reached. docs/api-contract.md#limits-by-access-mode: "an API key with credits pays one credit per
    // call once its daily limit is reached" (still within its per-minute limits).
    const days = plan.daily.length;
    const headersFor = (counts: readonly number[]) => rateLimitHeaders({ plan, tier, counts, now: at });
    const limit = reachedLimit(plan.daily, result.counts, 0)!;
    const minute = await store.consumeQuota({ counters: plan.perMinute, now: at });
    const headers = headersFor([...result.counts.slice(0, days), ...minute.counts]);
    if (!minute.admitted) {
      tallies?.quotaRefused(caller.mode, 'per_minute');
      const reached = reachedLimit(plan.perMinute, minute.counts, 0)!;
      throw rateLimited({ tier, limit: reached, perMinute: true, headers, now: at });
    }
    // The credit and the count of credits spent today move in one atomic step: a crash cannot part them. Named, so
    // that a call not charged (or a debit whose answer was lost) gives back exactly this credit.
    const keyId = caller.apiKey.id;
    const named = { keyId, count: creditsUsedCounter(keyId), now: at, id: randomUUID() };
    const debit = await store.debitCredit(named);
    if (!debit.ok) {
      tallies?.quotaRefused(caller.mode, 'credits');
      throw insufficientCredits({ tier, limit, headers, now: at });
    }
    let refunded = false;
    const refund = () => {
      if (refunded) return;
      refunded = true;
      store.refundDebit(named).catch(() => {});
    };
    return { headers, refund };
  };
  const admitNow: CountedAdmission['admitNow'] = (caller, tier, onDailyLimit) => {
    if (caller.apiKey !== undefined || store.consumeQuotaNow === undefined) return undefined;
    const plan = planFor(caller, tier);
    const at = p.now();
    const result = store.consumeQuotaNow({ counters: plan.counters, now: at });
    if (result === undefined) return undefined;
    if (result.admitted) return { headers: rateLimitHeaders({ plan, tier, counts: result.counts, now: at }) };
    refusePastMinute(caller, tier, plan, at, result.counts);
    return refusePastDay(caller, tier, plan, at, result.counts, onDailyLimit);
  };
  return { admit, admitNow, planFor };
}
