import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  isBrokenCircuitError,
} from 'cockatiel';
import { LRUCache } from 'lru-cache';
import { serviceUnavailable } from '../errors/api-error.js';
import { traceUpstreamCall } from '../observability/span-hooks.js';
import { type RetryBackoffParams, upstreamRetryDelayMs } from './retry-backoff.js';
import type { BreakerState, SourceHealthRegistry, SourceMonitor } from './source-health.js';
import { type ResolvedSourcePolicy, resolveSourcePolicy, type SourcePolicy } from './source-policy.js';
import {
  describeUpstreamFailure,
  isPassThroughError,
  isRetryableFailure,
  UpstreamError,
  UpstreamTimeoutError,
  upstreamFailureKind,
} from './upstream-failure.js';

export type { SourcePolicy } from './source-policy.js';
export { UpstreamError } from './upstream-failure.js';

/** Fetches one value from the upstream; should honour `signal` (aborted when the call's deadline passes). */
export type UpstreamFetcher<T> = (signal: AbortSignal) => Promise<T>;

/** Per-call options of {@link SourceClient.load}. */
export interface LoadOptions {
  /** Safe to repeat? Only idempotent calls are retried. Default true. */
  idempotent?: boolean;
  /** Overrides the policy's freshness for this key. */
  freshnessMs?: number;
  /**
   * The state the value must be read at, e.g. the chain's head block: a cached value is fresh exactly while it was
   * stored under this same version (freshnessMs is then not used), and only a call made for it is shared.
   */
  version?: bigint;
  /** false: always ask upstream, share nothing, keep nothing (no single-flight, no stale fallback). Default true. */
  cache?: boolean;
}

/** What a {@link SourceClient} is built from. */
export interface SourceClientParams {
  policy: SourcePolicy;
  /** The client registers itself here under `policy.name`. */
  registry: SourceHealthRegistry;
  /** Wall clock for cache freshness; the breaker's half-open delay always runs on real time. Default Date.now. */
  now?: () => number;
  /** Monotonic clock a call's deadline is counted on (it still fires on a real timer). Default performance.now. */
  monotonicNow?: () => number;
  /** Waits out the backoff before a retry. Default a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source for retry backoff. Default Math.random. */
  random?: () => number;
}

/** The clocks, waits and jitter a source client runs on: tests pass their own to decide time and jitter. */
export type SourceTiming = Pick<SourceClientParams, 'now' | 'monotonicNow' | 'sleep' | 'random'>;

interface CachedReply {
  value: unknown;
  storedAt: number;
  version: bigint | undefined;
}

const BREAKER_STATES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'open',
};

/** The reason an attempt's signal is aborted with once the attempt has settled (nothing waits on it any more). */
const ATTEMPT_ENDED = new UpstreamError('the upstream attempt has ended', { retryable: false });

/**
 * The base every upstream source stands on: a freshness cache with stale-if-error, single-flight, and one deadline
 * (`timeoutMs`) per upstream call that covers all its attempts, retries through a circuit breaker, reported to the
 * health registry. Past the deadline the caller gets the cached value if there is one, else 503, never later.
 * Upstream failures leave as `ApiError(503, 'SERVICE_UNAVAILABLE')`; a 4xx `ApiError` from the fetcher passes through.
 * @example
 * const client = new SourceClient({ policy: { name: 'coingecko', kind: 'prices', mode: 'live', freshnessMs: 30_000 }, registry })
 * const prices = await client.load('simple-price:eth', (signal) => fetchPrices(['ethereum'], signal))
 */
export class SourceClient {
  readonly policy: ResolvedSourcePolicy;
  private readonly monitor: SourceMonitor;
  private readonly now: () => number;
  private readonly monotonicNow: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly cache: LRUCache<string, CachedReply>;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly breaker: CircuitBreakerPolicy;
  private readonly backoff: RetryBackoffParams;
  private upstreamCallCount = 0;

  constructor(params: SourceClientParams) {
    this.policy = resolveSourcePolicy(params.policy);
    this.now = params.now ?? Date.now;
    this.monotonicNow = params.monotonicNow ?? (() => performance.now());
    this.sleep = params.sleep ?? ((ms) => sleep(ms));
    const { name, kind, mode, description, rpcUrl } = this.policy;
    this.monitor = params.registry.register({
      name,
      kind,
      mode,
      ...(description === undefined ? {} : { description }),
      ...(rpcUrl === undefined ? {} : { rpcUrl }),
    });
    this.cache = new LRUCache<string, CachedReply>({ max: this.policy.maxEntries });

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
        kind: upstreamFailureKind(failure),
      });
    });
    this.breaker = breaker;
    this.backoff = {
      ...this.policy.backoff,
      retryAfterCapMs: this.policy.retryAfterCapMs,
      ...(params.random === undefined ? {} : { random: params.random }),
    };
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
    const { version } = opts;
    if (cached !== undefined && this.isFresh(cached, version, opts.freshnessMs)) {
      this.monitor.recordAnswer('hit');
      return cached.value as T;
    }

    // A call made for an older version may answer with state the caller has already seen replaced: not shared.
    const flightKey = version === undefined ? key : `${key}\u0000${version}`;
    const pending = this.inFlight.get(flightKey);
    if (pending !== undefined) {
      this.monitor.recordAnswer('shared');
      return pending as Promise<T>;
    }
    const refresh = this.fetchOrFallBack<T>(key, fetcher, idempotent, version).finally(() =>
      this.inFlight.delete(flightKey),
    );
    this.inFlight.set(flightKey, refresh);
    return refresh;
  }

  /**
   * What a caller gets when the upstream is known to be failing without asking it again: the cached value while
   * stale-if-error allows, else 503.
   * @example await client.staleOrUnavailable('ens:addr:alice.eth')
   */
  staleOrUnavailable<T>(key: string): T {
    const stale = this.cache.get(key);
    if (stale !== undefined && this.now() - stale.storedAt <= this.policy.staleIfErrorMs) {
      this.monitor.recordStaleServed();
      return stale.value as T;
    }
    throw serviceUnavailable(`${this.policy.name} is unavailable`);
  }

  private isFresh(cached: CachedReply, version: bigint | undefined, freshnessMs: number | undefined): boolean {
    if (version !== undefined) return cached.version === version;
    return this.now() - cached.storedAt < (freshnessMs ?? this.policy.freshnessMs);
  }

  /** Fetches and caches; on an upstream failure serves a stale value if one is young enough, else 503. */
  private async fetchOrFallBack<T>(
    key: string | undefined,
    fetcher: UpstreamFetcher<T>,
    idempotent: boolean,
    version?: bigint,
  ): Promise<T> {
    this.monitor.recordAnswer('miss');
    try {
      const value = await traceUpstreamCall(this.policy, () => this.callUpstream(fetcher, idempotent));
      if (key !== undefined) this.cache.set(key, { value, storedAt: this.now(), version });
      return value;
    } catch (err) {
      if (isPassThroughError(err)) throw err;
      if (isBrokenCircuitError(err))
        this.monitor.recordFailure({ message: 'circuit breaker open', kind: 'breaker_open' });
      if (key === undefined) throw serviceUnavailable(`${this.policy.name} is unavailable`);
      return this.staleOrUnavailable<T>(key);
    }
  }

  /** Attempts the call until it answers, fails for good, runs out of retries or would outlast its deadline. */
  private async callUpstream<T>(fetcher: UpstreamFetcher<T>, idempotent: boolean): Promise<T> {
    const startedAt = this.monotonicNow();
    const remainingMs = () => this.policy.timeoutMs - (this.monotonicNow() - startedAt);
    const attempts = idempotent ? 1 + this.policy.retries : 1;
    let deadlinePassed = false;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.breaker.execute(() =>
          this.attempt(fetcher, remainingMs(), () => {
            deadlinePassed = true;
          }),
        );
      } catch (err) {
        // An attempt cut off by the deadline was given all the time left (a timer may fire a millisecond early).
        if (deadlinePassed || attempt >= attempts || !isRetryableFailure(err)) throw err;
        const delayMs = upstreamRetryDelayMs(err, attempt, this.backoff);
        // A retry that could not start before the deadline would only delay the stale value or the 503.
        if (delayMs >= remainingMs()) throw err;
        await this.sleep(delayMs);
        if (remainingMs() <= 0) throw err;
      }
    }
  }

  /** One attempt, given what is left of the call's deadline; raced, so a fetcher that ignores its signal cannot hold us. */
  private attempt<T>(fetcher: UpstreamFetcher<T>, timeoutMs: number, onDeadline: () => void): Promise<T> {
    this.upstreamCallCount += 1;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const timedOut = new UpstreamTimeoutError(timeoutMs);
        onDeadline();
        controller.abort(timedOut);
        reject(timedOut);
      }, timeoutMs);
    });
    const answered = Promise.resolve().then(() => fetcher(controller.signal));
    return Promise.race([answered, expired]).finally(() => {
      clearTimeout(timer);
      // Ends whatever the fetcher left open (a body not read, a request still pending); with a reason made once, as
      // abort() without one builds a DOMException (and its stack) on every call.
      controller.abort(ATTEMPT_ENDED);
    });
  }
}
