import type { SourceMode } from './source-health.js';

/** How one upstream source is called and cached; only name, kind, mode and freshnessMs are required. */
export interface SourcePolicy {
  name: string;
  kind: string;
  mode: SourceMode;
  description?: string;
  /** Local chains only: the embedded chain's loopback JSON-RPC URL, shown in /api/sources/health. */
  rpcUrl?: string;
  /** How long a reply is served from cache without asking upstream (docs/api-contract.md#data-freshness). */
  freshnessMs: number;
  /** How old a cached reply may be and still be served when upstream fails. Default: 10 × freshness, at most 1 h. */
  staleIfErrorMs?: number;
  /** Deadline of one upstream call: every attempt and every wait between them. Default 5000. */
  timeoutMs?: number;
  /** Attempts after the first, for idempotent calls. Default 2. */
  retries?: number;
  breaker?: {
    /** Consecutive failed attempts that open the breaker. Default 5. */
    consecutiveFailures?: number;
    /** How long the breaker stays open before one trial call. Default 10 000. */
    halfOpenAfterMs?: number;
  };
  backoff?: {
    /** First retry delay before jitter. Default 100. */
    initialDelayMs?: number;
    /** Upper bound of any retry delay. Default 2000. */
    maxDelayMs?: number;
  };
  /** Longest Retry-After we wait out inside one request; longer asks are shortened to this. Default 1000. */
  retryAfterCapMs?: number;
  /** Cached keys kept per source (least recently used go first). Default 1000. */
  maxEntries?: number;
}

/** A policy with every default filled in. */
export interface ResolvedSourcePolicy {
  name: string;
  kind: string;
  mode: SourceMode;
  description: string | undefined;
  rpcUrl: string | undefined;
  freshnessMs: number;
  staleIfErrorMs: number;
  timeoutMs: number;
  retries: number;
  breaker: { consecutiveFailures: number; halfOpenAfterMs: number };
  backoff: { initialDelayMs: number; maxDelayMs: number };
  retryAfterCapMs: number;
  maxEntries: number;
}

const ONE_HOUR_MS = 60 * 60 * 1000;

/** Thrown at start when a source policy makes no sense; a wiring bug, not a runtime condition. */
export class InvalidSourcePolicyError extends Error {
  override name = 'InvalidSourcePolicyError';
}

function requireNonNegative(policyName: string, field: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new InvalidSourcePolicyError(`source "${policyName}": ${field} must be a non-negative number`);
  }
  return value;
}

/**
 * Fills in the defaults of a source policy and checks its numbers.
 * @example resolveSourcePolicy({ name: 'coingecko', kind: 'prices', mode: 'live', freshnessMs: 30_000 }).staleIfErrorMs // 300000
 */
export function resolveSourcePolicy(policy: SourcePolicy): ResolvedSourcePolicy {
  const check = (field: string, value: number): number => requireNonNegative(policy.name, field, value);
  const freshnessMs = check('freshnessMs', policy.freshnessMs);
  const timeoutMs = check('timeoutMs', policy.timeoutMs ?? 5000);
  if (timeoutMs === 0) throw new InvalidSourcePolicyError(`source "${policy.name}": timeoutMs must be positive`);
  const consecutiveFailures = check('breaker.consecutiveFailures', policy.breaker?.consecutiveFailures ?? 5);
  if (!Number.isInteger(consecutiveFailures) || consecutiveFailures < 1) {
    throw new InvalidSourcePolicyError(
      `source "${policy.name}": breaker.consecutiveFailures must be a positive integer`,
    );
  }
  const retries = check('retries', policy.retries ?? 2);
  if (!Number.isInteger(retries))
    throw new InvalidSourcePolicyError(`source "${policy.name}": retries must be an integer`);
  return {
    name: policy.name,
    kind: policy.kind,
    mode: policy.mode,
    description: policy.description,
    rpcUrl: policy.rpcUrl,
    freshnessMs,
    staleIfErrorMs: check('staleIfErrorMs', policy.staleIfErrorMs ?? Math.min(10 * freshnessMs, ONE_HOUR_MS)),
    timeoutMs,
    retries,
    breaker: {
      consecutiveFailures,
      halfOpenAfterMs: check('breaker.halfOpenAfterMs', policy.breaker?.halfOpenAfterMs ?? 10_000),
    },
    backoff: {
      initialDelayMs: check('backoff.initialDelayMs', policy.backoff?.initialDelayMs ?? 100),
      maxDelayMs: check('backoff.maxDelayMs', policy.backoff?.maxDelayMs ?? 2000),
    },
    retryAfterCapMs: check('retryAfterCapMs', policy.retryAfterCapMs ?? 1000),
    maxEntries: Math.max(1, Math.floor(check('maxEntries', policy.maxEntries ?? 1000))),
  };
}
