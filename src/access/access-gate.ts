import type { Tier } from '../../rest-compat/route-row.js';
import type { ApiError } from '../errors/api-error.js';
import type { AccessTallies } from '../observability/access-tallies.js';
import type { Store } from '../store/store.js';
import { admitApiKeyCall } from './api-key-slot.js';
import { type BazaarExtension, bazaarTags } from './bazaar-discovery.js';
import type { AccessLimits } from './caller-limits.js';
import { countedAdmission, type DecidedCount } from './counted-admission.js';
import type { AccessRequest, Caller, IdentifyCaller } from './identify-caller.js';
import { routePriceUsd } from './payment-catalog.js';
import type { PaymentTerms } from './payment-offer.js';
import type { CountedTier } from './tiers.js';
import type { X402Payments } from './x402-payments.js';
import { presentedPayment } from './x402-presented-payment.js';
import type { PaymentReceipt } from './x402-settlement.js';

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
  /**
   * Present when the call was paid with one of the API key's credits (past its daily limit): gives the credit back
   * (exactly once, whatever the store went through). Call it when the answer is not charged, as a payment is not
   * settled: the call failed, or its answer is not worth its price.
   */
  refund?: () => void;
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
  /**
   * `admit` at once, where nothing needs waiting for: a counted call without credentials or payment, on a store that
   * decides at once (SQLite). Returns what `admit` resolves to, or throws what it rejects with; undefined (nothing
   * identified or counted) when the call needs `admit`.
   */
  admitNow(req: AccessRequest, route: AccessRoute): AccessDecision | undefined;
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

/** The release of a decision that holds no concurrency slot. */
export const noRelease = (): void => {};

/**
 * Whether the gate admits a call without looking anyone up, counting anything or waiting on anything: a free route
 * called without credentials. Its decision is always the same (no caller, no headers, nothing to release or settle),
 * so a caller holding its answer already (a fresh cached body) may send it at once, without a decision object.
 * @example if (admitsAtOnce(req, route) && body !== undefined) reply.send(body)
 */
export function admitsAtOnce(req: Pick<AccessRequest, 'headers'>, route: Pick<AccessRoute, 'tier'>): boolean {
  return route.tier === 'free' && !hasCredentials(req);
}

/**
 * Counts every non-free call against the caller's daily and per-minute quotas in the store, atomically, so that
 * instances sharing one store never admit more than the limits. An API key also holds one of its concurrency
 * slots for the duration of the call, and past its daily limit pays 1 credit per call
 * (docs/api-contract.md#choices-where-the-specification-conflicts-or-is-silent).
 * @example const gate = createAccessGate({ store, identify, limits: accessLimitsFromConfig(config) })
 */
export function createAccessGate(params: {
  store: Pick<
    Store,
    'consumeQuota' | 'consumeQuotaNow' | 'admitKeyCall' | 'releaseSlot' | 'debitCredit' | 'refundDebit' | 'touchApiKey'
  >;
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
  const identify = identifiedOncePerRequest(params.identify);
  const counted = countedAdmission({ store, now, tallies });
  const slots = { store, max: params.limits.apiKeyConcurrency, now, tallies };
  const count = (req: AccessRequest, caller: Caller, route: AccessRoute, tier: CountedTier, decided?: DecidedCount) =>
    counted.admit(caller, tier, (p) => params.onDailyLimit?.({ caller, route, req, ...p }), decided);
  const anonymous = params.identify.anonymous;

  return {
    identify,
    admitNow(req, route) {
      if (route.tier === 'free' || anonymous === undefined || hasCredentials(req)) return undefined;
      // A payment header is for admit (verified and paid for on a row that is for sale, else the call is counted).
      if (params.payments && (req.payment ?? presentedPayment(req.headers))) return undefined;
      const caller = anonymous(req);
      const tier = route.tier;
      const call = counted.admitNow(caller, tier, (p) => params.onDailyLimit?.({ caller, route, req, ...p }));
      return call && { caller, headers: call.headers, release: noRelease };
    },
    async admit(req, route) {
      if (admitsAtOnce(req, route)) return { caller: null, headers: {}, release: noRelease };
      if (route.tier === 'free') {
        // Nothing is needed or counted here, but credentials that are sent are checked: a bad key or token is a
        // 401 on every route (docs/access.md#who-is-counted), so a client learns of it on its first call, whatever it
        // calls.
        await identify(req, route.endsSession);
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
      const { apiKey } = caller;
      if (!apiKey) return { caller, headers: (await count(req, caller, route, tier)).headers, release: noRelease };

      // The common case in one step (one Redis round trip): a concurrency slot, the quota counters, lastUsedAt.
      const counters = counted.planFor(caller, tier).counters;
      const { release, at, quota } = await admitApiKeyCall(slots, { ...caller, apiKey }, tier, counters);
      try {
        const { headers, refund } = await count(req, caller, route, tier, { at, result: quota });
        // Admitted past the daily limit (a credit paid): lastUsedAt, which admitKeyCall sets only on an admitted
        // quota, is informational and not worth a round trip on the caller's time.
        if (!quota.admitted) store.touchApiKey({ id: apiKey.id, now: now() }).catch(() => {});
        return refund ? { caller, headers, release, refund } : { caller, headers, release };
      } catch (err) {
        release();
        throw err;
      }
    },
  };
}

/**
 * One identification per request: the gate, and resolvers asking later, share it (keyed by the headers object).
 * Without credentials the answer is the client IP's anonymous caller, the same however often it is asked.
 */
function identifiedOncePerRequest(identify: IdentifyCaller): AccessGate['identify'] {
  const identified = new WeakMap<object, Promise<Caller>>();
  return (req, endingSession = false) => {
    if (!hasCredentials(req)) return identify(req);
    let found = identified.get(req.headers);
    if (!found) {
      found = identify(req, endingSession);
      identified.set(req.headers, found);
    }
    return found;
  };
}

/** Whether the request sends an API key or an Authorization header (anything else is an anonymous caller). */
function hasCredentials(req: Pick<AccessRequest, 'headers'>): boolean {
  return req.headers['x-api-key'] !== undefined || req.headers.authorization !== undefined;
}
