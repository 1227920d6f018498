import type { Tier } from '../../rest-compat/route-row.js';
import { ApiError } from '../errors/api-error.js';
import type { Store } from '../store/store.js';
import { type AccessMode, DEFAULT_MODE_LIMITS, type ModeLimits } from './caller-limits.js';
import { type AccessRequest, type Caller, identifyCaller } from './identify-caller.js';
import { type QuotaPlan, quotaPlan, windowResetsAt } from './quota-plan.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

export interface AccessDecision {
  caller: Caller | null;
  /** X-RateLimit-* headers for the response; empty for always-free routes. */
  headers: Record<string, string>;
}

export interface AccessGate {
  /** Admits the call or throws the ApiError (429) that explains why not. */
  admit(req: AccessRequest, route: { tier: Tier }): Promise<AccessDecision>;
}

/**
 * Counts every non-free call against the caller's daily and per-minute quotas in the store, atomically,
 * so that instances sharing one store never admit more than the limits.
 * @example const gate = createAccessGate({ store, limits: DEFAULT_MODE_LIMITS })
 */
export function createAccessGate(params: {
  store: Pick<Store, 'consumeQuota'>;
  limits?: Record<AccessMode, ModeLimits>;
  now?: () => number;
}): AccessGate {
  const limits = params.limits ?? DEFAULT_MODE_LIMITS;
  const now = params.now ?? Date.now;
  return {
    async admit(req, route) {
      if (route.tier === 'free') return { caller: null, headers: {} };
      const caller = identifyCaller(req);
      const plan = quotaPlan(caller.key, limits[caller.mode], route.tier);
      const at = now();
      const result = await params.store.consumeQuota({
        counters: [plan.globalDaily, plan.tierDaily, plan.tierMinute],
        now: at,
      });
      const [globalUsed, tierDailyUsed, tierMinuteUsed] = result.counts;
      const headers = rateLimitHeaders({ plan, tier: route.tier, globalUsed, tierDailyUsed, tierMinuteUsed, now: at });
      if (!result.admitted) throw rateLimited({ plan, tier: route.tier, tierMinuteUsed, headers, now: at });
      return { caller, headers };
    },
  };
}

function rateLimited(p: {
  plan: QuotaPlan;
  tier: Tier;
  tierMinuteUsed: number;
  headers: Record<string, string>;
  now: number;
}): ApiError {
  const perMinute = p.tierMinuteUsed >= p.plan.tierMinute.limit;
  const window = perMinute ? p.plan.tierMinute : p.plan.tierDaily;
  const retryAfter = Math.max(1, Math.ceil((windowResetsAt(p.now, window.windowMs) - p.now) / 1000));
  const limit = perMinute ? p.plan.tierMinute.limit : Math.min(p.plan.tierDaily.limit, p.plan.globalDaily.limit);
  const message = perMinute
    ? `Rate limit exceeded: ${limit} requests per minute on the ${p.tier} tier`
    : `Daily limit exceeded: ${limit} requests per day on the ${p.tier} tier`;
  return new ApiError(
    429,
    'RATE_LIMITED',
    message,
    {
      retryAfter,
      tier: p.tier,
      limit,
      suggestion: perMinute
        ? `Retry after ${retryAfter} seconds, sign in with SIWE or use an API key for higher limits`
        : 'Sign in with SIWE, use an API key with credits, or pay per request with x402',
    },
    { ...p.headers, 'Retry-After': String(retryAfter) },
  );
}
