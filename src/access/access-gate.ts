import type { Tier } from '../../rest-compat/route-row.js';
import { ApiError } from '../errors/api-error.js';
import type { AccessTallies } from '../observability/access-tallies.js';
import { apiKeyOwner, type QuotaCounter, type QuotaDecision, type Store } from '../store/store.js';
import { type BazaarExtension, bazaarTags } from './bazaar-discovery.js';
import { BoundedMemo } from './bounded-memo.js';
import type { AccessLimits } from './caller-limits.js';
import type { AccessRequest, Caller, IdentifyCaller } from './identify-caller.js';
import { routePriceUsd } from './payment-catalog.js';
import type { PaymentTerms } from './payment-offer.js';
import { creditsUsedCounter, DAY_MS, MINUTE_MS, type QuotaPlan, quotaPlan, windowResetsAt } from './quota-plan.js';
import { rateLimitHeaders } from './rate-limit-headers.js';
import type { CountedTier } from './tiers.js';
import { type PaymentReceipt, presentedPayment, type X402Payments } from './x402-payments.js';

export interface AccessDecision {
  /** Null on always-free routes, which identify no one. */
  caller: Caller | null;
  /** X-RateLimit-* headers for the response; empty for always-free routes. */
  headers: Record<string, string>;
  /** Gives back the API key's concurrency slot; call once when the response is done (no-op for other callers). */
  release: () => void;
  /**
   * Present on a call paid with x402: settles the payment; call it once the answer is ready and before sending it,
   * and send the headers it resolves to (`X-PAYMENT-RESPONSE` / `PAYMENT-RESPONSE`). If it throws, send no data.
   */
  settle?: () => Promise<{ headers: Record<string, string>; receipt: PaymentReceipt }>;
  /**
   * Present with `settle`: call once the response is done. A payment that was never settled (the call answered an
   * error) is given back, so its authorization may pay again; after settle() it does nothing.
   */
  abandon?: () => void;
}

/** What the gate needs to know about the route being called. */
export interface AccessRoute {
  tier: Tier;
  /**
   * USD price of the route (the row's, or a /graphql operation's dearest root field's; absent: the configured
   * default), for a payment offer past the daily limit.
   */
  price?: string | undefined;
  /** What is sold per call: a table row's documented path, or /graphql for an operation for sale; absent: not sold. */
  path?: string;
  /** What the route answers, for the payment offer's description. */
  summary?: string;
  /** The route's area (docs/api-contract.md#areas), a bazaar listing tag. */
  tag?: string;
  /** x402 bazaar discovery offered with the route's 402 (how to call it, what it answers). */
  discovery?: BazaarExtension | undefined;
  /** The route only ends the caller's session (logout): a token already refreshed away is accepted for it. */
  endsSession?: boolean;
}

export interface AccessGate {
  /** Who is calling; identified once per request (later calls with the same request get the same answer). */
  identify(req: AccessRequest, endingSession?: boolean): Promise<Caller>;
  /** Identifies the caller and counts the call; throws the ApiError (401, 402, 429) that explains a refusal. */
  admit(req: AccessRequest, route: AccessRoute): Promise<AccessDecision>;
}

/**
 * Past the daily limit an anonymous or session caller gets this error instead of the 429: createAccess answers the
 * x402 offer (402) on rows that are for sale. Return undefined to keep the 429.
 */
export type DailyLimitResponse = (p: {
  caller: Caller;
  route: AccessRoute;
  headers: Record<string, string>;
  req: AccessRequest;
  /** The daily limit that was reached (the tier's, capped by the mode's global one) and seconds until it resets. */
  limit: number;
  retryAfter: number;
}) => ApiError | undefined;

/** What a paid call is for: the route's price (undefined: not sold) and the absolute URL asked for. */
export function paymentTermsFor(
  req: AccessRequest,
  route: AccessRoute,
  defaultPriceUsd: string,
): PaymentTerms | undefined {
  if (route.path === undefined || req.resource === undefined) return undefined;
  const priceUsd = routePriceUsd(route, defaultPriceUsd);
  if (priceUsd === undefined) return undefined;
  return {
    priceUsd,
    resource: req.resource(),
    description: route.summary ?? route.path,
    mimeType: 'application/json',
    discovery: route.discovery,
    tags: route.tag === undefined ? undefined : bazaarTags([route.tag]),
  };
}

/** Quota plans remembered per tier (callers seen most recently). */
const PLANS_KEPT = 10_000;
/** A slot held longer than this (a crashed instance) frees itself. */
const SLOT_TTL_MS = 60_000;
/** The release of a decision that holds no concurrency slot. */
export const noRelease = (): void => {};

/**
 * Counts every non-free call against the caller's daily and per-minute quotas in the store, atomically, so that
 * instances sharing one store never admit more than the limits. An API key also holds one of its concurrency
 * slots for the duration of the call, and past its daily limit pays 1 credit per call
 * (docs/api-contract.md#choices-where-the-specification-conflicts-or-is-silent).
 * @example const gate = createAccessGate({ store, identify, limits: accessLimitsFromConfig(config) })
 */
export function createAccessGate(params: {
  store: Pick<Store, 'consumeQuota' | 'admitKeyCall' | 'releaseSlot' | 'debitCredit' | 'touchApiKey'>;
  identify: IdentifyCaller;
  limits: AccessLimits;
  now?: () => number;
  onDailyLimit?: DailyLimitResponse;
  /**
   * x402: a call to a priced row that carries a payment header is paid instead of counted
   * (docs/api-contract.md#limits-by-access-mode: "paid calls are not counted").
   */
  payments?: { verifier: X402Payments; defaultPriceUsd: string };
  /** Refusals by access mode and limit, for /metrics. */
  tallies?: AccessTallies;
}): AccessGate {
  const { store, tallies } = params;
  const now = params.now ?? Date.now;
  // One identification per request: the gate, and resolvers asking later, share it (keyed by the headers object).
  const identified = new WeakMap<object, Promise<Caller>>();

  const identify = (req: AccessRequest, endingSession = false): Promise<Caller> => {
    // Without credentials the answer is the client IP's anonymous caller, the same however often it is asked.
    if (!hasCredentials(req)) return params.identify(req);
    let found = identified.get(req.headers);
    if (!found) {
      found = params.identify(req, endingSession);
      identified.set(req.headers, found);
    }
    return found;
  };

  // A caller's plan per tier is the same on every call (its limits only change with a new API key record).
  const plans = new Map<CountedTier, BoundedMemo<string, { limits: Caller['limits']; plan: QuotaPlan }>>();
  const planFor = (caller: Caller, tier: CountedTier): QuotaPlan => {
    let memo = plans.get(tier);
    if (!memo) {
      memo = new BoundedMemo(PLANS_KEPT);
      plans.set(tier, memo);
    }
    const made = () => ({ limits: caller.limits, plan: quotaPlan(caller, tier) });
    let entry = memo.get(caller.key, made);
    if (entry.limits.daily !== caller.limits.daily || entry.limits.perMinute !== caller.limits.perMinute) {
      entry = made();
      memo.set(caller.key, entry);
    }
    return entry.plan;
  };

  /**
   * Counts the call on the caller's quota counters, or takes `decided` (counted already, with an API key's slot, by
   * admitKeyCall at `at`); answers its rate-limit headers or throws the refusal (past an API key's daily limit: a
   * credit paid, within its per-minute limits).
   */
  const admitCounted = async (
    req: AccessRequest,
    caller: Caller,
    route: AccessRoute,
    tier: CountedTier,
    decided?: { at: number; result: QuotaDecision },
  ): Promise<Record<string, string>> => {
    const plan = planFor(caller, tier);
    const at = decided?.at ?? now();
    const result = decided?.result ?? (await store.consumeQuota({ counters: plan.counters, now: at }));
    const days = plan.daily.length;
    const headersFor = (counts: readonly number[]) => rateLimitHeaders({ plan, tier, counts, now: at });
    if (result.admitted) return headersFor(result.counts);

    const minuteLimit = reachedLimit(plan.perMinute, result.counts, days);
    if (minuteLimit !== undefined) {
      tallies?.quotaRefused(caller.mode, 'per_minute');
      throw rateLimited({ tier, limit: minuteLimit, perMinute: true, headers: headersFor(result.counts), now: at });
    }

    // Daily limit reached. docs/api-contract.md#limits-by-access-mode: "an API key with credits pays one credit per
    // call once its daily limit is reached"
    // (still within its per-minute limits); anyone else is refused until midnight UTC.
    const limit = reachedLimit(plan.daily, result.counts, 0)!;
    if (caller.apiKey) {
      const minute = await store.consumeQuota({ counters: plan.perMinute, now: at });
      const headers = headersFor([...result.counts.slice(0, days), ...minute.counts]);
      if (!minute.admitted) {
        tallies?.quotaRefused(caller.mode, 'per_minute');
        const reached = reachedLimit(plan.perMinute, minute.counts, 0)!;
        throw rateLimited({ tier, limit: reached, perMinute: true, headers, now: at });
      }
      // The credit and the count of credits spent today move in one atomic step: a crash cannot part them.
      const keyId = caller.apiKey.id;
      const debit = await store.debitCredit({ keyId, count: creditsUsedCounter(keyId), now: at });
      if (!debit.ok) {
        tallies?.quotaRefused(caller.mode, 'credits');
        throw insufficientCredits({ tier, limit, headers, now: at });
      }
      return headers;
    }
    const headers = headersFor(result.counts);
    const retryAfter = secondsUntil(windowResetsAt(at, DAY_MS), at);
    tallies?.quotaRefused(caller.mode, 'daily');
    throw (
      params.onDailyLimit?.({ caller, route, headers, req, limit, retryAfter }) ??
      rateLimited({ tier, limit, perMinute: false, headers, now: at })
    );
  };

  return {
    identify,
    async admit(req, route) {
      if (route.tier === 'free') {
        // Nothing is needed or counted here, but credentials that are sent are checked: a bad key or token is a
        // 401 on every route (docs/access.md#who-is-counted), so a client learns of it on its first call, whatever it
        // calls.
        if (hasCredentials(req)) await identify(req, route.endsSession);
        return { caller: null, headers: {}, release: noRelease };
      }
      const tier = route.tier;
      // A payment header on a row that is for sale: verified and paid for, not counted (no quota, no slot).
      const payment = params.payments && (req.payment ?? presentedPayment(req.headers));
      const terms = payment && paymentTermsFor(req, route, params.payments!.defaultPriceUsd);
      if (payment && terms) {
        const caller = await identify(req, route.endsSession);
        const authorized = await params.payments!.verifier.authorize(payment, terms);
        return {
          caller,
          headers: {},
          release: noRelease,
          settle: () => authorized.settle(),
          abandon: () => authorized.abandon(),
        };
      }
      const caller = await identify(req, route.endsSession);
      if (!caller.apiKey) return { caller, headers: await admitCounted(req, caller, route, tier), release: noRelease };

      const keyId = caller.apiKey.id;
      const slotKey = apiKeyOwner(keyId);
      // The common case in one step (one Redis round trip): a concurrency slot, the quota counters, lastUsedAt.
      const at = now();
      const admission = await store.admitKeyCall({
        keyId,
        slotKey,
        max: params.limits.apiKeyConcurrency,
        ttlMs: SLOT_TTL_MS,
        counters: planFor(caller, tier).counters,
        now: at,
      });
      const { token, quota } = admission;
      if (token === null || quota === null) {
        tallies?.quotaRefused(caller.mode, 'concurrency');
        throw tooManyInFlight(tier, params.limits.apiKeyConcurrency);
      }
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        store.releaseSlot({ key: slotKey, token }).catch(() => {});
      };
      try {
        const headers = await admitCounted(req, caller, route, tier, { at, result: quota });
        // Admitted past the daily limit (a credit paid): lastUsedAt, which admitKeyCall sets only on an admitted
        // quota, is informational and not worth a round trip on the caller's time.
        if (!quota.admitted) store.touchApiKey({ id: keyId, now: now() }).catch(() => {});
        return { caller, headers, release };
      } catch (err) {
        release();
        throw err;
      }
    },
  };
}

/** Whether the request sends an API key or an Authorization header (anything else is an anonymous caller). */
function hasCredentials(req: AccessRequest): boolean {
  return req.headers['x-api-key'] !== undefined || req.headers.authorization !== undefined;
}

function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** The tightest limit among counters that a refused call found reached; undefined when none is. */
function reachedLimit(
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

function rateLimited(p: {
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
        ? `Retry after ${retryAfter} seconds, sign in with SIWE or use an API key for higher limits`
        : 'Sign in with SIWE, use an API key with credits, or pay per request with x402',
    },
    { ...p.headers, 'Retry-After': String(retryAfter) },
  );
}

/** docs/api-contract.md#errors: the key's daily limit is reached and it has no credits left. */
function insufficientCredits(p: {
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
    `Insufficient Credits: the key's daily limit of ${limit} requests on the ${p.tier} tier is reached and its credits are used up`,
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
function tooManyInFlight(tier: CountedTier, limit: number): ApiError {
  return new ApiError(
    'RATE_LIMITED',
    `Concurrency limit exceeded: ${limit} requests in flight at once per API key`,
    {
      retryAfter: 1,
      tier,
      limit,
      suggestion: `Wait for a response before sending more than ${limit} requests at once with this key`,
    },
    { 'Retry-After': '1' },
  );
}

/**
 * A limit said in words, in the singular for one.
 * @example requestsPer(1, 'day') // '1 request per day'
 */
export function requestsPer(limit: number, unit: 'minute' | 'day'): string {
  return `${limit} ${limit === 1 ? 'request' : 'requests'} per ${unit}`;
}
