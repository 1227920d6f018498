import {
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  type IPolicy,
  retry,
  TimeoutStrategy,
  timeout,
  wrap,
} from 'cockatiel';
import { LRUCache } from 'lru-cache';
import { serviceUnavailable } from '../errors/api-error.js';
import { upstreamRetryBackoff } from './retry-backoff.js';
import type { BreakerState, SourceHealthRegistry, SourceMonitor } from './source-health.js';
import { type ResolvedSourcePolicy, resolveSourcePolicy, type SourcePolicy } from './source-policy.js';
import { describeUpstreamFailure, isPassThroughError, isRetryableFailure } from './upstream-failure.js';

export type { SourcePolicy } from './source-policy.js';
export { UpstreamError } from './upstream-failure.js';

/** Fetches one value from the upstream; must honour `signal` (aborted on timeout). */
export type UpstreamFetcher<T> = (signal: AbortSignal) => Promise<T>;

/** Per-call options of {@link SourceClient.load}. */
export interface LoadOptions {
  /** Safe to repeat? Only idempotent calls are retried. Default true. */
  idempotent?: boolean;
  /** Overrides the policy's freshness for this key. */
  freshnessMs?: number;
  /** false: always ask upstream, share nothing, keep nothing (no single-flight, no stale fallback). Default true. */
  cache?: boolean;
}

/** What a {@link SourceClient} is built from. */
export interface SourceClientParams {
  policy: SourcePolicy;
  /** The client registers itself here under `policy.name`. */
  registry: SourceHealthRegistry;
  /** Clock for cache freshness; the breaker's half-open delay always runs on real time. */
  now?: () => number;
  /** Jitter source for retry backoff. */
  random?: () => number;
}

interface CachedReply {
  value: unknown;
  storedAt: number;
}

type AttemptPolicy = IPolicy<{ signal: AbortSignal }>;

const BREAKER_STATES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'open',
};

/**
 * The base every upstream source stands on: a freshness cache with stale-if-error, single-flight,
 * and timeout → retry → circuit breaker around each upstream call, reported to the health registry.
 * Upstream failures leave as `ApiError(503, 'SERVICE_UNAVAILABLE')`; a 4xx `ApiError` from the fetcher passes through.
 * @example
 * const client = new SourceClient({ policy: { name: 'coingecko', kind: 'prices', mode: 'live', freshnessMs: 30_000 }, registry })
 * const prices = await client.load('simple-price:eth', (signal) => fetchPrices(['ethereum'], signal))
 */
export class SourceClient {
  readonly policy: ResolvedSourcePolicy;
  private readonly monitor: SourceMonitor;
  private readonly now: () => number;
  private readonly cache: LRUCache<string, CachedReply>;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly retryingAttempts: AttemptPolicy;
  private readonly singleAttempt: AttemptPolicy;
  private upstreamCallCount = 0;

  constructor(params: SourceClientParams) {
    this.policy = resolveSourcePolicy(params.policy);
    this.now = params.now ?? Date.now;
    const { name, kind, mode, description } = this.policy;
    this.monitor = params.registry.register({
      name,
      kind,
      mode,
      ...(description === undefined ? {} : { description }),
    });
    this.cache = new LRUCache<string, CachedReply>({ max: this.policy.maxEntries });

    const perAttemptTimeout = timeout(this.policy.timeoutMs, TimeoutStrategy.Aggressive);
    const breaker = circuitBreaker(
      handleWhen((err) => !isPassThroughError(err)),
      {
        halfOpenAfter: this.policy.breaker.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(this.policy.breaker.consecutiveFailures),
      },
    );
    breaker.onStateChange((state) => this.monitor.recordBreakerState(BREAKER_STATES[state]));
    // Every attempt that reached the upstream passes the breaker's executor once; a fail-fast never does.
    breaker.onSuccess(({ duration }) => this.monitor.recordSuccess({ latencyMs: duration }));
    breaker.onFailure(({ duration, handled, reason }) => {
      // Unhandled means a pass-through 4xx: the upstream answered, the source made it our caller's error.
      if (!handled) return this.monitor.recordSuccess({ latencyMs: duration });
      const failure = 'error' in reason ? reason.error : reason.value;
      this.monitor.recordFailure({
        latencyMs: duration,
        message: describeUpstreamFailure(failure, this.policy.timeoutMs),
      });
    });
    const retrying = retry(handleWhen(isRetryableFailure), {
      maxAttempts: this.policy.retries,
      backoff: upstreamRetryBackoff({
        ...this.policy.backoff,
        retryAfterCapMs: this.policy.retryAfterCapMs,
        ...(params.random === undefined ? {} : { random: params.random }),
      }),
    });
    this.retryingAttempts = wrap(retrying, breaker, perAttemptTimeout);
    this.singleAttempt = wrap(breaker, perAttemptTimeout);
  }

  /** How many times a fetcher was invoked (every attempt, retries included). */
  get upstreamCalls(): number {
    return this.upstreamCallCount;
  }

  /**
   * Returns the value for `key`: from cache while fresh, else from `fetcher` under the source's policies.
   * @example await client.load(`price:${id}`, (signal) => http.fetchPrice(id, signal), { freshnessMs: 30_000 })
   */
  async load<T>(key: string, fetcher: UpstreamFetcher<T>, opts: LoadOptions = {}): Promise<T> {
    const idempotent = opts.idempotent ?? true;
    if (opts.cache === false) return this.fetchOrFallBack<T>(undefined, fetcher, idempotent);

    const cached = this.cache.get(key);
    const freshnessMs = opts.freshnessMs ?? this.policy.freshnessMs;
    if (cached !== undefined && this.now() - cached.storedAt < freshnessMs) return cached.value as T;

    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending as Promise<T>;
    const refresh = this.fetchOrFallBack<T>(key, fetcher, idempotent).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, refresh);
    return refresh;
  }

  /** Fetches and caches; on an upstream failure serves a stale value if one is young enough, else 503. */
  private async fetchOrFallBack<T>(
    key: string | undefined,
    fetcher: UpstreamFetcher<T>,
    idempotent: boolean,
  ): Promise<T> {
    try {
      const value = await this.callUpstream(fetcher, idempotent);
      if (key !== undefined) this.cache.set(key, { value, storedAt: this.now() });
      return value;
    } catch (err) {
      if (isPassThroughError(err)) throw err;
      const stale = key === undefined ? undefined : this.cache.get(key);
      if (stale !== undefined && this.now() - stale.storedAt <= this.policy.staleIfErrorMs) {
        this.monitor.recordStaleServed();
        return stale.value as T;
      }
      throw serviceUnavailable(`${this.policy.name} is unavailable`);
    }
  }

  private callUpstream<T>(fetcher: UpstreamFetcher<T>, idempotent: boolean): Promise<T> {
    const policy = idempotent ? this.retryingAttempts : this.singleAttempt;
    return policy.execute(({ signal }) => {
      this.upstreamCallCount += 1;
      return fetcher(signal);
    });
  }
}
